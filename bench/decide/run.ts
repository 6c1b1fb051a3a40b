// Decision latency of the policy engine: p50/p99 µs per decision and decisions/s, by rule count,
// for file calls and shell calls (cached and cold shell parse), then the same-run comparison with Cedar and
// node-casbin (peers.ts). Run: npx tsx bench/decide/run.ts  (only the peer table: --peers)
import { dialectOf } from "../../lib/agents/dialects";
import {
  decide,
  parseRule,
  type PolicyContext,
  type Rule,
  type ShellParser,
  type ToolCall,
} from "../../lib/policy/index";
import { loadShellParser } from "../../lib/agents/shared/shell-parser";
import { runPeers } from "./peers";

const SOURCE = { scope: "workspace" as const, store: "/w/.commandcode/settings.json" };
const TEMPLATES: [string, "allow" | "ask" | "deny"][] = [
  ["Shell(npm run task{i}:*)", "allow"],
  ["Shell(tool{i} *)", "ask"],
  ["Edit(src/mod{i}/**)", "allow"],
  ["Read(secrets{i}/**)", "deny"],
  ["mcp__server{i}__*", "allow"],
  ["Shell(git push --force{i}*)", "deny"],
  ["Edit(/gen/{i}/*.ts)", "allow"],
  ["WebFetch(domain:host{i}.example.com)", "allow"],
];

function makeRules(n: number): Rule[] {
  const out: Rule[] = [];
  for (let i = 0; i < n; i++) {
    const [tpl, action] = TEMPLATES[i % TEMPLATES.length];
    const r = parseRule(tpl.replace("{i}", String(i)), action, { dialect: dialectOf("commandcode"), source: SOURCE });
    if (r.ok) out.push(r.value);
  }
  return out;
}

const FILE_CALLS: ToolCall[] = [
  { tool: "edit_file", input: { file_path: "src/mod2/a.ts" } },
  { tool: "edit_file", input: { file_path: "lib/x/b.ts" } },
  { tool: "read_file", input: { file_path: "secrets3/key.txt" } },
  { tool: "write_file", input: { file_path: "gen/6/out.ts" } },
];
const SHELL_CALLS: ToolCall[] = [
  { tool: "shell_command", input: { command: "npm run task0 -- --watch=false && git status" } },
  { tool: "shell_command", input: { command: "FOO=1 make build | tee build.log" } },
  { tool: "shell_command", input: { command: "git push --force5 origin main" } },
  { tool: "shell_command", input: { command: "cat README.md | head -5 || echo none" } },
];

function measure(calls: ToolCall[], ctx: PolicyContext, iterations: number, cold: boolean) {
  const samples = new Float64Array(iterations);
  for (let i = 0; i < 200; i++) decide(calls[i % calls.length], ctx); // warm-up, compiles the rule index
  let total = 0n;
  for (let i = 0; i < iterations; i++) {
    const call = calls[i % calls.length];
    if (cold) ctx.shell?.clearCache();
    const t0 = process.hrtime.bigint();
    decide(call, ctx);
    const dt = process.hrtime.bigint() - t0;
    total += dt;
    samples[i] = Number(dt) / 1000;
  }
  samples.sort();
  return {
    p50: samples[Math.floor(iterations * 0.5)],
    p99: samples[Math.floor(iterations * 0.99)],
    perSec: Math.round(iterations / (Number(total) / 1e9)),
  };
}

async function main() {
  const shell = await loadShellParser();
  if (!process.argv.includes("--peers")) await byRuleCount(shell);
  await runPeers(shell);
}

async function byRuleCount(shell: ShellParser) {
  const rows: string[][] = [];
  const builds: string[] = [];
  for (const n of [10, 100, 1_000, 10_000]) {
    const ctx: PolicyContext = {
      dialect: dialectOf("commandcode"),
      mode: "default",
      workspaceRoot: "/w",
      home: "/home/u",
      tmpDirs: ["/tmp"],
      rules: makeRules(n),
      shell,
    };
    const t0 = process.hrtime.bigint();
    decide(FILE_CALLS[0], ctx); // first decision builds the per-context rule index
    builds.push(`${n}: ${(Number(process.hrtime.bigint() - t0) / 1e6).toFixed(2)} ms`);
    for (const [label, calls, cold, iters] of [
      ["file", FILE_CALLS, false, 20_000],
      ["shell cached", SHELL_CALLS, false, 20_000],
      ["shell cold", SHELL_CALLS, true, 2_000],
    ] as const) {
      const m = measure([...calls], ctx, iters, cold);
      rows.push([String(n), label, m.p50.toFixed(2), m.p99.toFixed(2), m.perSec.toLocaleString("en-US")]);
    }
  }
  const head = ["rules", "calls", "p50 µs", "p99 µs", "decisions/s"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padStart(widths[i])).join(" | ")} |`;
  console.log(line(head));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const r of rows) console.log(line(r));
  console.log(`\nfirst decision (builds the rule index, once per rules array): ${builds.join(", ")}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
