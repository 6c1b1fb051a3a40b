// Gemini decision latency: the cockpit's engine vs Gemini CLI's own PolicyEngine (@google/gemini-cli-core, a dev
// dependency) on the same rules and calls, with Gemini's built-in policies loaded. Prints percentiles and the ratio.
// Run: npx tsx bench/gemini/decide.ts
import { ApprovalMode, DEFAULT_CORE_POLICIES_DIR, loadPoliciesFromToml, PolicyEngine } from "@google/gemini-cli-core";
import { builtinPolicyFiles } from "@/lib/agents/gemini/builtin";
import { decideGemini } from "@/lib/agents/gemini/engine";
import { realHost } from "@/lib/agents/gemini/io/host";
import { loadGeminiShell } from "@/lib/agents/gemini/io/shell-wasm";
import type { GeminiCall } from "@/lib/agents/gemini/types";

console.debug = () => {};
console.log = () => {};
const CALLS: GeminiCall[] = [
  { tool: "read_file", input: { file_path: "README.md" } },
  { tool: "write_file", input: { file_path: "src/a.ts", content: "x" } },
  { tool: "run_shell_command", input: { command: "git status" } },
  { tool: "run_shell_command", input: { command: "npm test && git diff | head -20" } },
  { tool: "run_shell_command", input: { command: 'bash -c "ls -la > out.txt"' } },
  { tool: "mcp_github_create_issue", input: { title: "x" } },
];
const N = 2000;
const pct = (xs: number[], p: number) =>
  xs.sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

const shell = await loadGeminiShell();
const host = realHost(process.cwd());
const ours = builtinPolicyFiles().flatMap((b) => b.parsed.rules);
const theirs = new PolicyEngine({
  rules: (await loadPoliciesFromToml([DEFAULT_CORE_POLICIES_DIR], () => 1)).rules,
  approvalMode: ApprovalMode.DEFAULT,
});

const oursT: number[] = [];
const theirsT: number[] = [];
for (let i = 0; i < N; i++) {
  const call = CALLS[i % CALLS.length];
  let t = performance.now();
  decideGemini(call, { rules: ours, mode: "default", trustedFolder: true, shell, host });
  oursT.push(performance.now() - t);
  t = performance.now();
  await theirs.check({ name: call.tool, args: call.input }, undefined);
  theirsT.push(performance.now() - t);
}
for (const [name, xs] of [
  ["cockpit", oursT],
  ["gemini-cli-core", theirsT],
] as const) {
  console.info(
    `${name.padEnd(16)} p50 ${pct(xs, 50).toFixed(3)} ms  p95 ${pct(xs, 95).toFixed(3)} ms  p99 ${pct(xs, 99).toFixed(3)} ms`,
  );
}
console.info(`ratio p50 cockpit/gemini: ${(pct(oursT, 50) / pct(theirsT, 50)).toFixed(2)}`);
