/**
 * `npm run oracle:claude-code [-- --seed S --scenarios N --calls K --jobs J --only ID --documented-only --report FILE]`:
 * the real Claude Code judges `cockpit decide --agent claude-code`. Installs `@anthropic-ai/claude-code` (pinned,
 * about 400 MB) on demand into the git-ignored `.oracle/claude-code/`, then for every scenario (the documented
 * cases of test/support/claude-code/scenarios.ts, then N generated from the seed) runs the real `claude -p`
 * offline as an unprivileged user in a scratch HOME and workspace under the temp folder, with a scripted stand-in
 * for the Messages API making the calls, records what Claude Code did (ran it, asked, denied), and compares with
 * `cockpit decide --jsonl` on the same files. Writes every disagreement with its seed to the report (Markdown)
 * and all verdicts to `.oracle/claude-code/last-run.json`; exits 1 when any disagreed. Docs: docs/agents.md.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CLAUDE_CODE_VERSION, INSTALL_DIR, ROOT, ensureClaudeCode } from "../test/support/claude-code/install";
import { runScenario, type ScenarioResult } from "../test/support/claude-code/oracle";
import { ensureOracleUser } from "../test/support/claude-code/run";
import { DOCUMENTED, generateScenarios, type Scenario } from "../test/support/claude-code/scenarios";

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
function count(name: string, fallback: number): number {
  const v = flag(name) === undefined ? fallback : Number(flag(name));
  if (!Number.isSafeInteger(v) || v < 0) throw new Error(`--${name} must be a whole number`);
  return v;
}

const seed = count("seed", Math.floor(Math.random() * 1_000_000));
const generated = process.argv.includes("--documented-only") ? 0 : count("scenarios", 12);
const jobs = Math.max(1, count("jobs", 2));
const only = flag("only");
const reportFile = path.resolve(ROOT, flag("report") ?? "bench/decide/claude-code-oracle-report.md");

function describeFiles(sc: Scenario): string {
  const parts: string[] = [];
  for (const [name, p] of [
    ["user", sc.user],
    ["project", sc.project],
    ["local", sc.local],
  ] as const)
    if (p) parts.push(`${name} ${JSON.stringify(p)}`);
  return parts.join("; ") || "no rules";
}

const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", "\\n");

function report(results: ScenarioResult[], seconds: number, installSeconds: number): string {
  const verdicts = results.flatMap((r) => r.verdicts);
  const compared = verdicts.filter((v) => v.claude !== "error");
  const disagreements = results
    .flatMap((r) => r.verdicts.filter((v) => !v.agree).map((v) => ({ r, v })))
    .sort((a, b) => Number(b.v.cockpitIs === "more permissive") - Number(a.v.cockpitIs === "more permissive"));
  const permissive = disagreements.filter((d) => d.v.cockpitIs === "more permissive").length;
  const lines = [
    "# Claude Code as the judge: differential oracle report",
    "",
    `Written by \`npm run oracle:claude-code\` (scripts/oracle-claude-code.ts). Claude Code ${CLAUDE_CODE_VERSION}, seed ${seed},`,
    `${results.length} scenarios (${results.filter((r) => r.scenario.id.startsWith("doc-")).length} documented, the rest generated),`,
    `${compared.length} calls compared, **${disagreements.length} disagreements** (the cockpit more permissive in **${permissive}**,`,
    `stricter in ${disagreements.length - permissive}); ${verdicts.length - compared.length} calls failed Claude Code's input checks`,
    `(not compared); ${results.filter((r) => r.failure).length} runs failed.`,
    `Wall time ${seconds.toFixed(0)} s (install ${installSeconds.toFixed(0)} s).`,
    "",
    "Re-run one scenario: `npm run oracle:claude-code -- --seed S --only ID` (generated ids are `gen-<seed>-<n>`).",
    "`{WS}` is the scratch workspace (Claude Code's working directory), `{HOME}` the scratch HOME.",
    "Claude Code's outcome: **ask** = its PermissionRequest hook fired; **allow** = it ran the call without asking",
    "(PostToolUse or PostToolUseFailure fired); **deny** = it refused without asking. Offline, an allowed WebFetch",
    "then fails its domain preflight, and plan mode's classifier is unavailable (Claude Code denies what it would",
    "hand to the classifier): the outcome is still Claude Code's permission decision, not the tool's success.",
    "More permissive rows come first: the cockpit must never be more permissive than Claude Code.",
    "",
  ];
  if (disagreements.length) {
    lines.push("## Disagreements", "");
    lines.push(
      "| scenario | mode, trust | settings | call | Claude Code | cockpit (step, rule) | cockpit is | Claude Code said |",
    );
    lines.push("| --- | --- | --- | --- | --- | --- | --- | --- |");
    for (const { r, v } of disagreements) {
      const sc = r.scenario;
      const cockpit = v.cockpit.error
        ? `error: ${v.cockpit.error}`
        : `${v.cockpit.decision} (${v.cockpit.step}${v.cockpit.rule ? `, ${v.cockpit.rule}` : ""})`;
      lines.push(
        `| ${sc.id} | ${sc.mode ?? "default"}, ${sc.trusted ? "trusted" : "untrusted"} | ${cell(describeFiles(sc))} | ${cell(
          `${v.call.name} ${JSON.stringify(v.call.input).slice(0, 160)}`,
        )} | **${v.claude}** | ${cell(cockpit)} | ${v.cockpitIs} | ${cell(v.claudeSaid.slice(0, 160))} |`,
      );
    }
    lines.push("");
  }
  const failures = results.filter((r) => r.failure);
  if (failures.length) {
    lines.push("## Runs that failed", "");
    for (const r of failures) lines.push(`- ${r.scenario.id}: ${cell(r.failure!)}`);
    lines.push("");
  }
  lines.push("## Documented cases", "");
  for (const r of results.filter((x) => x.scenario.doc)) {
    const bad = r.verdicts.filter((v) => !v.agree).length;
    lines.push(
      `- ${r.scenario.id} (${r.scenario.doc}): ${r.failure ? "run failed" : bad ? `${bad} disagreement(s)` : "agree"}`,
    );
  }
  lines.push("");
  return lines.join("\n");
}

async function main() {
  const started = Date.now();
  const { bin, installSeconds } = ensureClaudeCode((l) => process.stdout.write(l + "\n"));
  const user = ensureOracleUser();
  if (!user) process.stdout.write("not root: Claude Code runs as the current user (use a throwaway account)\n");
  let scenarios = [...DOCUMENTED, ...generateScenarios(seed, generated)];
  if (only) scenarios = scenarios.filter((s) => s.id === only);
  if (!scenarios.length) throw new Error(`no scenario "${only}"`);
  process.stdout.write(
    `Claude Code ${CLAUDE_CODE_VERSION}, seed ${seed}, ${scenarios.length} scenarios, ${jobs} at a time\n`,
  );
  const results: ScenarioResult[] = new Array(scenarios.length);
  let nextIndex = 0;
  await Promise.all(
    Array.from({ length: jobs }, async () => {
      while (nextIndex < scenarios.length) {
        const i = nextIndex++;
        const r = await runScenario(scenarios[i]!, bin, user);
        results[i] = r;
        const bad = r.verdicts.filter((v) => !v.agree).length;
        process.stdout.write(
          `${r.scenario.id}: ${r.failure ? `FAILED ${r.failure.slice(0, 200)}` : `${r.verdicts.length} calls, ${bad} disagree`} (${r.seconds.toFixed(0)} s)\n`,
        );
        for (const v of r.verdicts.filter((x) => !x.agree))
          process.stdout.write(
            `  ${v.call.name} ${JSON.stringify(v.call.input).slice(0, 120)}: claude ${v.claude}, cockpit ${v.cockpit.decision ?? v.cockpit.error} (${v.cockpit.step})\n`,
          );
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  mkdirSync(INSTALL_DIR, { recursive: true });
  writeFileSync(
    path.join(INSTALL_DIR, "last-run.json"),
    JSON.stringify({ version: CLAUDE_CODE_VERSION, seed, results }, null, 2),
  );
  writeFileSync(reportFile, report(results, seconds, installSeconds));
  const disagreements = results.reduce((n, r) => n + r.verdicts.filter((v) => !v.agree).length, 0);
  const perCall =
    seconds /
    Math.max(
      1,
      results.reduce((n, r) => n + r.verdicts.length, 0),
    );
  process.stdout.write(
    `\n${disagreements} disagreements; report: ${path.relative(ROOT, reportFile)}; ${seconds.toFixed(0)} s (${perCall.toFixed(1)} s per call)\n`,
  );
  process.exit(disagreements || results.some((r) => r.failure) ? 1 : 0);
}

main().catch((error) => {
  process.stderr.write(`oracle:claude-code: ${(error as Error).stack ?? error}\n`);
  process.exit(2);
});
