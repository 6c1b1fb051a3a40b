// Codex decision latency: `decideCodex` against 1,000 prefix rules in three rules files (first-position and later
// alternatives, every decision, host executables), p50/p99 µs per call by call shape; plus the time to read and
// load the rules. Run: npx tsx bench/decide/codex.ts
import { decideCodex, type CodexDecideContext } from "../../lib/agents/codex/decide";
import { loadCodexParsers } from "../../lib/agents/codex/io/parsers";
import { loadPolicy } from "../../lib/agents/codex/policy";
import { parseRulesFile } from "../../lib/agents/codex/rules-parse";

const RULES = 1_000;
const DECISIONS = ["allow", "prompt", "forbidden"];

function rulesText(file: number, count: number): string {
  const lines = [`# generated rules file ${file}`];
  for (let i = 0; i < count; i++) {
    const n = file * count + i;
    const d = DECISIONS[n % 3];
    if (n % 10 === 0) lines.push(`prefix_rule(pattern = [["tool${n}", "alt${n}"], "run"], decision = "${d}")`);
    else if (n % 7 === 0)
      lines.push(
        `prefix_rule(\n    pattern = ["npm", "run", ["task${n}", "job${n}"]],\n    decision = "${d}",\n    justification = "rule ${n}",\n)`,
      );
    else lines.push(`prefix_rule(pattern = ["cmd${n % 97}", "sub${n}"], decision = "${d}")`);
  }
  lines.push('host_executable(name = "git", paths = ["/usr/bin/git"])');
  lines.push('prefix_rule(pattern = ["git", ["push", "fetch"]], decision = "prompt")');
  return lines.join("\n") + "\n";
}

const CALLS: [string, string[]][] = [
  ["argv, rule match", ["npm", "run", "task7", "--", "--watch=false"]],
  ["argv, no rule (heuristics)", ["cargo", "build", "--release"]],
  ["host executable fallback", ["/usr/bin/git", "push", "origin"]],
  ["bash -lc, 3 plain segments", ["bash", "-lc", "npm run task7 && cmd5 sub5 | wc -l"]],
  ["bash -lc, judged whole", ["bash", "-lc", "FOO=1 make build > log.txt"]],
  ["bash -lc, heredoc", ["bash", "-lc", "python3 <<'PY'\nprint(1)\nPY"]],
];

function percentiles(samples: Float64Array) {
  samples.sort();
  return { p50: samples[Math.floor(samples.length * 0.5)]!, p99: samples[Math.floor(samples.length * 0.99)]! };
}

async function main() {
  const { bash, python } = await loadCodexParsers();
  const per = Math.ceil(RULES / 3);
  const texts = [0, 1, 2].map((f) => rulesText(f, f === 2 ? RULES - 2 * per : per));
  const t0 = process.hrtime.bigint();
  const files = texts.map((t, i) => parseRulesFile(`/home/u/.codex/rules/r${i}.rules`, t, "user", python));
  const policy = loadPolicy(files, [], { cwd: "/work", home: "/home/u" });
  const loadMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const count = files.reduce((n, f) => n + f.calls.filter((c) => c.fn === "prefix_rule").length, 0);
  if (policy.failure) throw new Error(policy.failure.message);
  const ctx: CodexDecideContext = {
    approvalPolicy: "on-request",
    sandboxMode: "workspace-write",
    policy,
    bash,
    cwd: "/work",
    home: "/home/u",
  };
  process.stdout.write(`Codex: ${count} prefix_rule calls in 3 files, read + loaded in ${loadMs.toFixed(1)} ms\n\n`);
  process.stdout.write("call shape                       p50 µs   p99 µs   decision\n");
  const iterations = 5_000;
  for (const [label, argv] of CALLS) {
    const call = { tool: "shell", input: { command: argv } };
    for (let i = 0; i < 200; i++) decideCodex(call, ctx);
    const samples = new Float64Array(iterations);
    let decision = "";
    for (let i = 0; i < iterations; i++) {
      const s = process.hrtime.bigint();
      decision = decideCodex(call, ctx).decision;
      samples[i] = Number(process.hrtime.bigint() - s) / 1000;
    }
    const { p50, p99 } = percentiles(samples);
    process.stdout.write(
      `${label.padEnd(32)} ${p50.toFixed(1).padStart(7)}  ${p99.toFixed(1).padStart(7)}   ${decision}\n`,
    );
  }
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
