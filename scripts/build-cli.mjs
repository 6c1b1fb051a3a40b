#!/usr/bin/env node
// Bundles the `cockpit` command ahead of time (npm's `prepare` on install, and `cockpit start`), so a run
// loads plain JavaScript instead of transpiling TypeScript: dist/cli/main.mjs (every verb) and
// dist/cli/hook.mjs (only the hook bridge, which agents start on every tool call).
// bin/cockpit.mjs uses a bundle only while it is fresh: dist/cli/manifest.json lists each bundle's source
// files, and a newer source means the TypeScript runs (through tsx) instead.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const CLI_DIST = "dist/cli";
/** Entry name → source file; bin/cockpit.mjs picks "hook" for `cockpit hook …`, "main" otherwise. */
export const ENTRIES = { main: "lib/cli/main.ts", hook: "lib/cli/hook-main.ts" };
/** Files that change a bundle's meaning without being one of its inputs. */
const ALWAYS_INPUTS = ["package.json", "package-lock.json", "tsconfig.json", "scripts/build-cli.mjs"];

const BUNDLED_PACKAGES = ["zod", "jsonc-parser", "picomatch", "shell-quote"];

/** esbuild plugin: bare imports of packages outside `names` stay imports (resolved from node_modules at run time). */
function bundleOnly(names) {
  return {
    name: "bundle-only",
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith("node:") || args.path.startsWith("@/")) return undefined;
        const pkg = args.path.startsWith("@") ? args.path.split("/").slice(0, 2).join("/") : args.path.split("/")[0];
        return names.includes(pkg) ? undefined : { path: args.path, external: true };
      });
    },
  };
}

/**
 * Agents whose hooks run from the small hook bundle (dist/cli/hook.mjs): their connector answers through the
 * cockpit's HTTP API. Other agents' connectors decide locally (Cursor runs the engine and the shell parser in its
 * hook), so `cockpit hook <other agent>` runs the main bundle: sharing chunks with them would make every Claude Code
 * hook load full zod and more.
 */
export const HOOK_BUNDLE_AGENTS = ["claude-code"];

/**
 * esbuild plugin for the hook bundle: an agent's engine and stores, and the connectors of agents outside
 * HOOK_BUNDLE_AGENTS (lib/agents/<agent>/agent.ts loads each lazily), are left out: a module that throws stands in.
 */
function withoutEngines() {
  return {
    name: "without-engines",
    setup(build) {
      build.onResolve({ filter: /^\.\.?\/([\w-]+\/)?(agent-)?(engine|stores|connector)$/ }, (args) => {
        const agent = args.importer.match(/lib[\\/]agents[\\/]([^\\/]+)[\\/]agent\.ts$/)?.[1];
        if (!agent) return undefined;
        if (/connector$/.test(args.path) && HOOK_BUNDLE_AGENTS.includes(agent)) return undefined;
        return { path: `${agent}/${path.basename(args.path)}`, namespace: "hook-without-engines" };
      });
      build.onLoad({ filter: /.*/, namespace: "hook-without-engines" }, (args) => ({
        contents: `throw new Error("${args.path} is not in the hook bundle (dist/cli/hook.mjs); the main bundle has it");`,
        loader: "js",
      }));
    },
  };
}

/** esbuild's outputs keyed by file name within the bundle folder. */
function outputs_(metafileOutputs, dir, root) {
  return Object.entries(metafileOutputs).map(([file, o]) => [path.relative(dir, path.resolve(root, file)), o]);
}

export async function buildCli(root = ROOT, out = path.join(root, CLI_DIST)) {
  const esbuild = await import("esbuild");
  // Sources are compared with the start of the build: one edited meanwhile makes the bundle stale.
  const builtAt = Date.now();
  const tmp = `${out}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  const common = {
    absWorkingDir: root,
    outdir: tmp,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // ESM builds first: jsonc-parser's UMD main requires its files at run time, which a bundle cannot.
    mainFields: ["module", "main"],
    tsconfig: path.join(root, "tsconfig.json"),
    // Small pure-JavaScript packages go into the bundle: Node loading their module files one by one costs
    // more than the rest of a run (zod alone ~0.1 s). Everything else (web-tree-sitter, which finds files
    // beside itself; the database drivers) loads from node_modules as usual.
    plugins: [bundleOnly(BUNDLED_PACKAGES)],
    metafile: true,
    logLevel: "warning",
    legalComments: "none",
  };
  const manifest = { builtAt, entries: {} };
  // Per output file: its sources, the files it imports and which source a lazily loaded chunk stands for (esbuild's
  // metafile, paths relative to the bundle folder). Returned for tests, not written: every run reads the manifest.
  const files = {};
  for (const name of Object.keys(ENTRIES)) {
    // Split: what an entry imports lazily (an agent's engine, stores or connector) lands in chunks of its own,
    // loaded only when that code runs; the hook bridge loads its connector and nothing else.
    const result = await esbuild.build({
      ...common,
      entryPoints: { [name]: ENTRIES[name] },
      plugins: [...common.plugins, ...(name === "hook" ? [withoutEngines()] : [])],
      splitting: true,
      chunkNames: `${name}-[name]-[hash]`,
    });
    const outputs = Object.entries(result.metafile.outputs);
    const inputs = outputs.flatMap(([, o]) => Object.keys(o.inputs));
    // Sources (not packages: package.json and the lockfile stand for them) decide freshness.
    const sources = inputs.filter((f) => !f.includes("node_modules/") && !f.includes(":"));
    manifest.entries[name] = { file: `${name}.mjs`, inputs: [...new Set([...sources, ...ALWAYS_INPUTS])].sort() };
    for (const [file, o] of outputs_(result.metafile.outputs, tmp, root))
      files[file] = {
        inputs: Object.keys(o.inputs),
        imports: o.imports.map((i) => ({ path: i.external ? i.path : path.basename(i.path), kind: i.kind })),
        entryPoint: o.entryPoint,
      };
  }
  fs.writeFileSync(path.join(tmp, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
  // Swap in the new folder whole: a concurrent `cockpit` never sees a half-written bundle.
  const old = `${out}.old-${process.pid}`;
  if (fs.existsSync(out)) fs.renameSync(out, old);
  fs.renameSync(tmp, out);
  fs.rmSync(old, { recursive: true, force: true });
  return { ...manifest, outputs: files };
}

/**
 * The bundle for `entry` ("main" or "hook") when every source it was built from is older than it, else null.
 * bin/cockpit.mjs calls this on every run: one small JSON read and a stat per source file.
 */
export function freshBundle(entry, root = ROOT, dist = path.join(root, CLI_DIST)) {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(dist, "manifest.json"), "utf8"));
    const { file, inputs } = manifest.entries[entry];
    for (const input of inputs) if (fs.statSync(path.join(root, input)).mtimeMs > manifest.builtAt) return null;
    return path.join(dist, file);
  } catch {
    // Missing, unreadable or naming a deleted source: stale.
    return null;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  // --if-stale (`cockpit start`): leave fresh bundles alone.
  if (process.argv.includes("--if-stale") && Object.keys(ENTRIES).every((e) => freshBundle(e))) process.exit(0);
  buildCli().then(
    (m) =>
      process.stdout.write(
        `cockpit CLI bundled into ${CLI_DIST}/ (${Object.keys(m.entries).join(", ")}) in ${Date.now() - started} ms\n`,
      ),
    (error) => {
      // A failed bundle is not fatal: bin/cockpit.mjs runs the TypeScript sources instead.
      process.stderr.write(`cockpit: could not bundle the CLI (${error.message}); it will run from source\n`);
      process.exit(0);
    },
  );
}
