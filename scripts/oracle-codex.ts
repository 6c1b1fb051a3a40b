/**
 * `npm run oracle:codex [-- --cases N --seed S]`: the real Codex judges the cockpit's Codex rule matching.
 * Installs `@openai/codex` (pinned, about 400 MB) on demand into the git-ignored `.oracle/codex/`, generates rules
 * files (first-position and later alternatives, overlapping prefixes, every decision, host executables, match /
 * not_match examples that may fail) and argv, and requires `codex execpolicy check` and lib/agents/codex to agree on
 * the matched rules, the decision and on whether the rules load at all. Prints the seed; any disagreement prints
 * the case and exits 1. Docs: docs/agents/codex.md.
 */
import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadCodexParsers } from "../lib/agents/codex/io/parsers";
import { generateOracleCase, type OracleCase } from "../lib/agents/codex/oracle-gen";
import { loadPolicy, matchRules } from "../lib/agents/codex/policy";
import { parseRulesFile } from "../lib/agents/codex/rules-parse";

const VERSION = process.env.CODEX_ORACLE_VERSION ?? "0.169.0";
const ROOT = path.resolve(import.meta.dirname, "..");
const DIR = path.join(ROOT, ".oracle", "codex");

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isSafeInteger(v) || v < 0) throw new Error(`--${name} must be a whole number`);
  return v;
}

function findBinary(): string | undefined {
  const vendor = path.join(DIR, "node_modules", "@openai", `codex-${process.platform}-${process.arch}`, "vendor");
  if (!existsSync(vendor)) return undefined;
  for (const triple of readdirSync(vendor)) {
    const bin = path.join(vendor, triple, "bin", "codex");
    if (existsSync(bin)) return bin;
  }
  return undefined;
}

function install(): string {
  let bin = findBinary();
  const have = bin ? spawnSync(bin, ["--version"], { encoding: "utf8" }).stdout.trim() : "";
  if (bin && have.endsWith(VERSION)) return bin;
  mkdirSync(DIR, { recursive: true });
  writeFileSync(path.join(DIR, "package.json"), JSON.stringify({ private: true, name: "codex-oracle" }) + "\n");
  const started = Date.now();
  process.stdout.write(`installing @openai/codex@${VERSION} into ${path.relative(ROOT, DIR)}/ …\n`);
  const r = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--no-save", `@openai/codex@${VERSION}`], {
    cwd: DIR,
    stdio: "inherit",
  });
  if (r.status !== 0) throw new Error("npm install @openai/codex failed");
  bin = findBinary();
  if (!bin) throw new Error(`no Codex binary for ${process.platform}-${process.arch} in the package`);
  process.stdout.write(`installed in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return bin;
}

type Outcome = { error: true } | { error: false; decision?: string; matches: string[] };

function runCodex(bin: string, env: NodeJS.ProcessEnv, cwd: string, files: string[], c: OracleCase): Promise<Outcome> {
  const args = ["execpolicy", "check"];
  if (c.resolveHostExecutables) args.push("--resolve-host-executables");
  for (const f of files) args.push("--rules", f);
  args.push("--", ...c.argv);
  return new Promise((resolve, reject) => {
    execFile(bin, args, { env, cwd, encoding: "utf8" }, (err, stdout) => {
      if (err) {
        if (typeof err.code === "number") return resolve({ error: true });
        return reject(err);
      }
      const out = JSON.parse(stdout) as {
        matchedRules: {
          prefixRuleMatch: {
            matchedPrefix: string[];
            decision: string;
            resolvedProgram?: string;
            justification?: string;
          };
        }[];
        decision?: string;
      };
      resolve({
        error: false,
        ...(out.decision ? { decision: out.decision } : {}),
        matches: out.matchedRules.map((m) => JSON.stringify(m.prefixRuleMatch)),
      });
    });
  });
}

async function main() {
  const cases = arg("cases", 10_000);
  const seed = arg("seed", Math.floor(Math.random() * 2 ** 31));
  const bin = install();
  const { python } = await loadCodexParsers();
  const work = mkdtempSync(path.join(os.tmpdir(), "codex-oracle-"));
  const home = path.join(work, "home");
  const cwd = path.join(work, "cwd");
  mkdirSync(path.join(home, ".codex"), { recursive: true });
  mkdirSync(cwd);
  // Codex reads CODEX_HOME for -c overrides only; keep it away from the user's own ~/.codex.
  const env = { ...process.env, HOME: home, CODEX_HOME: path.join(home, ".codex"), RUST_LOG: "off" };
  process.stdout.write(
    `seed ${seed}: ${cases} cases against ${spawnSync(bin, ["--version"], { encoding: "utf8" }).stdout.trim()}\n`,
  );
  const started = Date.now();
  let done = 0;
  let failed = 0;
  const workers = Math.max(1, os.availableParallelism?.() ?? os.cpus().length);
  let next = 0;
  async function worker(w: number) {
    while (next < cases && failed === 0) {
      const index = next++;
      const c = generateOracleCase(seed, index);
      const dir = path.join(work, `w${w}`);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir);
      const files = c.files.map((text, i) => {
        const f = path.join(dir, `r${i}.rules`);
        writeFileSync(f, text);
        return f;
      });
      const real = await runCodex(bin, env, cwd, files, c);
      const parsed = c.files.map((text, i) => parseRulesFile(files[i]!, text, "user", python));
      const loaded = loadPolicy(parsed, [], { cwd, home });
      let ours: Outcome;
      if (loaded.failure) ours = { error: true };
      else {
        const m = matchRules(loaded.effective, c.argv, { resolveHostExecutables: c.resolveHostExecutables, cwd, home });
        const decision = m.reduce<string | undefined>((acc, x) => {
          const rank = { allow: 0, prompt: 1, forbidden: 2 } as const;
          return acc === undefined || rank[x.decision] > rank[acc as keyof typeof rank] ? x.decision : acc;
        }, undefined);
        ours = {
          error: false,
          ...(decision ? { decision } : {}),
          matches: m.map((x) =>
            JSON.stringify({
              matchedPrefix: x.matchedPrefix,
              decision: x.decision,
              ...(x.resolvedProgram ? { resolvedProgram: x.resolvedProgram } : {}),
              ...(x.justification !== undefined ? { justification: x.justification } : {}),
            }),
          ),
        };
      }
      if (JSON.stringify(real) !== JSON.stringify(ours)) {
        failed++;
        process.stdout.write(
          `\nDISAGREEMENT seed ${seed} case ${index}\n` +
            c.files.map((t, i) => `--- r${i}.rules\n${t}`).join("") +
            `--- argv ${JSON.stringify(c.argv)} resolve=${c.resolveHostExecutables}\n` +
            `codex:   ${JSON.stringify(real)}\ncockpit: ${JSON.stringify(ours)}` +
            (loaded.failure ? `\ncockpit failure: ${JSON.stringify(loaded.failure)}` : "") +
            "\n",
        );
      }
      done++;
      if (done % 1000 === 0) process.stdout.write(`  ${done} cases, ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
    }
  }
  await Promise.all(Array.from({ length: workers }, (_, w) => worker(w)));
  rmSync(work, { recursive: true, force: true });
  const secs = (Date.now() - started) / 1000;
  process.stdout.write(`seed ${seed}: ${done} cases in ${secs.toFixed(1)} s, ${failed} disagreement(s)\n`);
  process.stdout.write(`${done - failed} passed, ${failed} failed\n`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(2);
});
