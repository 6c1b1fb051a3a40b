import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli, freshBundle } from "@/scripts/build-cli.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cli-bundle-"));
// Inside the checkout: the bundle loads its external packages from node_modules beside it.
const out = path.join(ROOT, "dist", `test-${process.pid}`);
let manifest: Awaited<ReturnType<typeof buildCli>>;

beforeAll(async () => {
  manifest = await buildCli(ROOT, out);
}, 60_000);
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.rmSync(out, { recursive: true, force: true });
});

function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const vars: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: tmp,
    COCKPIT_ROOT: ROOT,
    COCKPIT_MANAGED_SETTINGS: "",
    ...extra,
  };
  return vars as NodeJS.ProcessEnv;
}

/** Runs one bundle's `main` the way bin/cockpit.mjs does, in a fresh process. */
function runBundle(file: string, argv: string[], stdin: string, env: Record<string, string> = {}) {
  const script = `const { main } = await import(${JSON.stringify(pathToFileURL(path.join(out, file)).href)});
process.exitCode = await main(${JSON.stringify(argv)});`;
  return spawnSync(process.execPath, ["--liftoff-only", "--input-type=module", "-e", script], {
    input: stdin,
    encoding: "utf8",
    env: childEnv(env),
    timeout: 30_000,
  });
}

describe("the prebuilt CLI", () => {
  it("keeps the Claude Code hook apart from the database, the engines, the stores' readers and the parsers", () => {
    // What `cockpit hook claude-code` loads: hook.mjs and its static imports, plus Claude Code's connector chunk
    // (the registry imports it lazily) and its static imports. Other lazy chunks stand in for code left out.
    const outputs = manifest.outputs;
    const connector = Object.keys(outputs).find(
      (f) => f.startsWith("hook") && outputs[f]!.entryPoint === "lib/agents/claude-code/connector.ts",
    );
    expect(connector).toBeDefined();
    const loaded = new Set<string>();
    const visit = (file: string) => {
      if (loaded.has(file)) return;
      loaded.add(file);
      for (const i of outputs[file]!.imports)
        if (i.kind === "import-statement" && !i.path.startsWith("node:")) visit(i.path);
    };
    visit("hook.mjs");
    visit(connector!);
    const inputs = [...loaded].flatMap((f) => outputs[f]!.inputs);
    expect(inputs).toContain("lib/cli/verbs/hook.ts");
    expect(inputs).toContain("lib/agents/claude-code/connector.ts");
    const heavy = inputs.filter((f) =>
      /^db\/|^lib\/(policy|policy-runtime|hygiene|cards|audit|entries|notify|workspaces)\/|^lib\/agents\/[^/]+\/(agent-)?(engine|stores)\.ts$|^lib\/agents\/shared\/(ladder|shell-parser|settings-stores)|^lib\/stores\/(load|list|policy)|node_modules\/(zod\/v4\/classic|web-tree-sitter|pg|@electric-sql)\//.test(
        f,
      ),
    );
    expect(heavy).toEqual([]);
    // Only Node's own modules are loaded at run time: no package is read (zod/mini and jsonc-parser are bundled,
    // tree-shaken), no database driver, no tree-sitter.
    let bytes = 0;
    for (const file of loaded) {
      bytes += fs.statSync(path.join(out, file)).size;
      const external = outputs[file]!.imports.filter((i) => !i.path.startsWith("node:") && !i.path.startsWith("hook"));
      expect(external, file).toEqual([]);
    }
    expect(bytes).toBeLessThan(250_000);
  });

  it("answers a hook from the bundle: an unreachable cockpit prints nothing, so the terminal decides", () => {
    const payload = JSON.stringify({
      hook_event_name: "PermissionRequest",
      session_id: "s1",
      tool_name: "Bash",
      tool_input: { command: "rm -rf build" },
    });
    const r = runBundle("hook.mjs", ["hook", "claude-code"], payload, {
      COCKPIT_TOKEN: "cpa_x",
      COCKPIT_URL: "http://127.0.0.1:9",
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("");
    const usage = runBundle("hook.mjs", ["hook", "codex-nope"], "");
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain("Usage: cockpit hook");
  });

  it("decides from the bundle exactly as from the sources", () => {
    const ws = path.join(tmp, "ws");
    fs.mkdirSync(path.join(ws, ".claude"), { recursive: true });
    fs.writeFileSync(path.join(ws, ".claude", "settings.json"), '{"permissions":{"deny":["Bash(curl *)"]}}');
    const r = runBundle(
      "main.mjs",
      [
        "decide",
        "--workspace",
        ws,
        "--agent",
        "claude-code",
        "--call",
        '{"tool":"Bash","input":{"command":"ls && curl x"}}',
      ],
      "",
    );
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toMatchObject({ decision: "deny", step: "deny-rule", rule: "Bash(curl *)" });
  });
});

describe("freshBundle", () => {
  const root = path.join(tmp, "fresh");
  const dist = path.join(root, "dist");
  const write = (inputs: string[], builtAt: number) => {
    fs.mkdirSync(dist, { recursive: true });
    fs.writeFileSync(
      path.join(dist, "manifest.json"),
      JSON.stringify({ builtAt, entries: { hook: { file: "hook.mjs", inputs } } }),
    );
  };

  it("uses the bundle while every source is older, and the sources once one is newer, missing or unlisted", () => {
    fs.mkdirSync(path.join(root, "lib"), { recursive: true });
    const source = path.join(root, "lib", "a.ts");
    fs.writeFileSync(source, "");
    const past = new Date(Date.now() - 60_000);
    fs.utimesSync(source, past, past);
    write(["lib/a.ts"], Date.now() - 1000);
    expect(freshBundle("hook", root, dist)).toBe(path.join(dist, "hook.mjs"));
    expect(freshBundle("main", root, dist)).toBeNull();
    fs.utimesSync(source, new Date(), new Date());
    expect(freshBundle("hook", root, dist)).toBeNull();
    write(["lib/gone.ts"], Date.now() + 60_000);
    expect(freshBundle("hook", root, dist)).toBeNull();
    fs.rmSync(path.join(dist, "manifest.json"));
    expect(freshBundle("hook", root, dist)).toBeNull();
  });
});
