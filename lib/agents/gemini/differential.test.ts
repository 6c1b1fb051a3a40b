/**
 * The real Gemini CLI as the judge: generated TOML policies and calls go through Gemini's own engine
 * (@google/gemini-cli-core 0.61.0, a dev dependency used only here) and through the cockpit's; every decision
 * must agree. A failure prints its seed: `GEMINI_DIFF_SEED=<seed> npx vitest run lib/agents/gemini/differential.test.ts`.
 *
 * Runtime state the cockpit cannot have, and how this test pins it on both sides:
 * - safety checkers (conseca, allowed-path) need Gemini's CheckerRunner and context: the oracle runs without one,
 *   and so does the cockpit's engine here (`safetyCheckers` off). The cockpit models allowed-path separately.
 * - the sandbox manager: Gemini's default NoopSandboxManager with the workspace = process.cwd(); the cockpit gets
 *   the real disk of the same directory (io/host.ts).
 * - folder trust: a function on Gemini's side, a boolean on ours; both values are generated.
 * - in-memory "allow for this session" rules and MCP tool metadata (`_serverName`) are generated as plain rules
 *   and as the call's `server` field.
 */
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { chance, mulberry32, pick, type Rand } from "@/test/support/seeded";
import { ApprovalMode, loadPoliciesFromToml, PolicyEngine } from "@google/gemini-cli-core";
import { builtinPolicyFiles } from "./builtin";
import { decideGemini } from "./engine";
import { realHost } from "./io/host";
import { loadGeminiShell } from "./io/shell-wasm";
import type { GeminiShell } from "./shell";
import { parsePolicyFile } from "./toml-policy";
import { TIER, type GeminiMode, type GeminiRule, type TierName } from "./types";

// `npm test` judges 2,500 cases (10 calls for each of the 250 policy sets, the same every run); the full 10,000 of
// docs/agents/gemini.md: `GEMINI_DIFF_CASES=10000 npx vitest run lib/agents/gemini/differential.test.ts`.
const CASES = Number(process.env.GEMINI_DIFF_CASES ?? 2_500);
const POLICY_SETS = 250;

type R = Rand;

const COMMANDS = [
  "git status", "git log --oneline", "git logout", "git log;", "git -c core.pager=cat log", "git status --output=x",
  "git branch -D main", "git branch", "git push origin main", "ls -la", "ls", "pwd", "cat README.md", "cat /etc/passwd",
  "cat ~/.ssh/id_rsa", "echo hi", "echo hi > out.txt", "echo $(whoami)", "echo `date`", "cat <(ls)", "ls && pwd",
  "ls; rm -rf build", "npm test", "npm run build | tee log", "rm -rf build", "rm -f x", "rm x", "sudo rm -f x",
  "sudo ls", "find . -name '*.ts'", "find . -exec rm {} \\;", "rg --pre cat foo", "rg foo", "/usr/bin/rg foo",
  "grep -r foo .", "grep -f /etc/shadow x", "sed -n 1,5p README.md", "sed -i s/a/b/ x", "head -n 3 package.json",
  "bash -c \"ls && pwd\"", "bash -c 'git status'", "sh -c \"rm -rf /\"", "zsh -c \"echo hi\"", "cd .. && ls",
  "cd /tmp", "FOO=1 git status", "env git status", "time git log", "wc -l < input.txt", "cat <<EOF\nhi\nEOF",
  "cat <<< hi", "echo 'unterminated", "ls |", "(cd sub && ls)", "curl https://example.com | sh", "python3 -c 'print(1)'",
  "node -e \"1\"", "make", "./gradlew build", "docker ps", "ln -s a b", "base64 -o out in", "base64 file",
  "echo ${x@P}", "git diff --ext-diff", "  ", "", "tac file", "uniq -c", "which node", "whoami", "uname -a",
  "git status && git log", "git log | head", "echo a && echo b > c", "ls -la src/", "cat ./src/../../x",
  "stat -c %s file", "expr 1 + 2", "true && false", "git show HEAD:file", "git -C .. status",
]; // prettier-ignore
const PREFIXES = [
  "git",
  "git status",
  "git log",
  "ls",
  "npm",
  "npm test",
  "rm",
  "echo",
  "cat",
  "bash",
  "sudo",
  "find",
  "./gradlew",
  "make",
];
const FILES = [
  "src/a.ts",
  "/work/x/README.md",
  "package.json",
  "Makefile",
  "docs/plan.md",
  ".gemini/tmp/p/q/plans/x.md",
  "plans/y.md",
  "a b.txt",
  'x"y',
];
const TOOLS = [
  "run_shell_command", "ShellTool", "read_file", "write_file", "replace", "glob", "grep_search", "search_file_content",
  "list_directory", "web_fetch", "google_web_search", "ask_user", "enter_plan_mode", "exit_plan_mode", "activate_skill",
  "invoke_agent", "mcp_github_create_issue", "mcp_github_list", "mcp_my_server_tool", "discovered_tool_x", "custom_tool",
  "save_memory", "write_todos", "complete_task",
]; // prettier-ignore
const MODES: GeminiMode[] = ["default", "autoEdit", "yolo", "plan"];
const DECISIONS = ["allow", "deny", "ask_user"] as const;
const TIERS: TierName[] = ["default", "extension", "workspace", "user", "admin"];

function tomlString(s: string) {
  return JSON.stringify(s);
}

function genRule(r: R): string {
  const lines: string[] = ["[[rule]]"];
  const kind = r();
  if (kind < 0.4) {
    lines.push(`toolName = "run_shell_command"`);
    if (chance(r, 0.7)) {
      lines.push(
        chance(r, 0.3)
          ? `commandPrefix = [${tomlString(pick(r, PREFIXES))}, ${tomlString(pick(r, PREFIXES))}]`
          : `commandPrefix = ${tomlString(pick(r, PREFIXES))}`,
      );
    } else if (chance(r, 0.5)) {
      lines.push(
        `commandRegex = ${tomlString(pick(r, ["git (status|log)", "ls.*", "rm -rf .*", "[a-z]+ --help", "npm (test|run build)"]))}`,
      );
    }
    if (chance(r, 0.2)) lines.push(`allowRedirection = true`);
  } else if (kind < 0.55) {
    lines.push(`toolName = ${tomlString(pick(r, ["create_issue", "list", "*", "tool"]))}`);
    lines.push(`mcpName = ${tomlString(pick(r, ["github", "my", "*", "other"]))}`);
  } else if (kind < 0.7) {
    lines.push(`toolName = ${tomlString(pick(r, ["write_file", "replace", "read_file"]))}`);
    const f = pick(r, FILES);
    lines.push(
      `argsPattern = ${tomlString(pick(r, [`\\x00"file_path":${JSON.stringify(f).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\x00`, `"file_path":"src/`, `\\.md"`, `(a+)+`, `[unclosed`]))}`,
    );
  } else {
    const names = [pick(r, TOOLS), pick(r, TOOLS)];
    lines.push(
      chance(r, 0.3)
        ? `toolName = [${names.map(tomlString).join(", ")}]`
        : `toolName = ${tomlString(chance(r, 0.1) ? "*" : names[0])}`,
    );
  }
  lines.push(`decision = "${pick(r, DECISIONS)}"`);
  lines.push(`priority = ${chance(r, 0.15) ? 950 : Math.floor(r() * 1000)}`);
  if (chance(r, 0.3))
    lines.push(`modes = [${[...new Set([pick(r, MODES), pick(r, MODES)])].map(tomlString).join(", ")}]`);
  if (chance(r, 0.15)) lines.push(`interactive = ${chance(r, 0.5)}`);
  if (chance(r, 0.05)) lines.push(`toolAnnotations = { readOnlyHint = true }`);
  if (chance(r, 0.05)) lines.push(`subagent = ${tomlString(pick(r, ["codebase_investigator", "helper"]))}`);
  if (chance(r, 0.03)) lines.push(`denyMessage = "no"`);
  return lines.join("\n");
}

function genCall(r: R): {
  tool: string;
  input: Record<string, unknown>;
  server?: string;
  annotations?: Record<string, unknown>;
  subagent?: string;
} {
  const tool = chance(r, 0.4) ? pick(r, ["run_shell_command", "run_shell_command", "ShellTool"]) : pick(r, TOOLS);
  const input: Record<string, unknown> = {};
  if (tool === "run_shell_command" || tool === "ShellTool") {
    input.command = chance(r, 0.2) ? `${pick(r, COMMANDS)} && ${pick(r, COMMANDS)}` : pick(r, COMMANDS);
    if (chance(r, 0.1)) input.dir_path = pick(r, ["sub", "..", "/tmp", "."]);
  } else if (["write_file", "replace", "read_file"].includes(tool)) {
    input.file_path = pick(r, FILES);
    if (tool !== "read_file") input.content = "x";
  } else if (tool === "invoke_agent") {
    input.agent_name = pick(r, ["codebase_investigator", "cli_help", "other"]);
  } else if (chance(r, 0.5)) {
    input.query = "q";
  }
  if (chance(r, 0.05))
    input.additional_permissions = { fileSystem: { read: [pick(r, ["/etc", process.cwd(), "src"])] } };
  const call: ReturnType<typeof genCall> = { tool, input };
  if (tool.startsWith("mcp_") && chance(r, 0.3)) call.server = pick(r, ["github", "my_server", "my"]);
  if (chance(r, 0.05)) call.annotations = { readOnlyHint: true };
  if (chance(r, 0.02)) call.annotations = { ...call.annotations, _serverName: pick(r, ["github", "my"]) };
  if (chance(r, 0.08)) call.subagent = pick(r, ["codebase_investigator", "helper"]);
  return call;
}

const ORACLE_MODE: Record<GeminiMode, ApprovalMode> = {
  default: ApprovalMode.DEFAULT,
  autoEdit: ApprovalMode.AUTO_EDIT,
  yolo: ApprovalMode.YOLO,
  plan: ApprovalMode.PLAN,
};

let dir: string;
let shell: GeminiShell;
// The oracle's default rules, loaded from Gemini's own package directory (not from our transcription).
let oracleDefaults: Awaited<ReturnType<typeof loadPoliciesFromToml>>["rules"];

beforeAll(async () => {
  // Gemini's debugLogger writes every step to the console.
  vi.spyOn(console, "debug").mockImplementation(() => {});
  vi.spyOn(console, "log").mockImplementation(() => {});
  dir = await mkdtemp(path.join(os.tmpdir(), "gemini-diff-"));
  shell = await loadGeminiShell();
  const { DEFAULT_CORE_POLICIES_DIR } = await import("@google/gemini-cli-core");
  oracleDefaults = (await loadPoliciesFromToml([DEFAULT_CORE_POLICIES_DIR], () => 1)).rules;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("differential: the cockpit decides as Gemini CLI 0.61.0 does", () => {
  it(`agrees on ${CASES} generated cases`, async () => {
    const baseSeed = Number(process.env.GEMINI_DIFF_SEED ?? 20261204);
    const disagreements: string[] = [];
    const host = realHost(process.cwd());
    let cases = 0;
    const seen = { allow: 0, deny: 0, ask_user: 0, shell: 0, ruleDecided: 0, loadedRules: 0, fileErrors: 0 };
    const perSet = Math.ceil(CASES / POLICY_SETS);
    for (let set = 0; set < POLICY_SETS; set++) {
      const seed = baseSeed + set;
      const r = mulberry32(seed);
      // Policy files per tier, written where Gemini's loader reads them.
      const ours: GeminiRule[] = [];
      const theirs: Awaited<ReturnType<typeof loadPoliciesFromToml>>["rules"] = [];
      const files = 1 + Math.floor(r() * 4);
      for (let f = 0; f < files; f++) {
        const tier = pick(r, TIERS);
        const text = Array.from({ length: 1 + Math.floor(r() * 6) }, () => genRule(r)).join("\n\n") + "\n";
        const tierDir = path.join(dir, `${set}-${f}-${tier}`);
        await mkdir(tierDir, { recursive: true });
        const file = path.join(tierDir, "p.toml");
        await writeFile(file, text);
        const loaded = await loadPoliciesFromToml([tierDir], () => TIER[tier]);
        theirs.push(...loaded.rules);
        const mine = parsePolicyFile({ file, content: text, tier });
        ours.push(...mine.rules);
        seen.loadedRules += mine.rules.length;
        seen.fileErrors += mine.errors.filter((e) => e.severity === "error").length;
        if (loaded.rules.length !== mine.rules.length) {
          disagreements.push(
            `seed ${seed}: ${tier} file loads ${loaded.rules.length} rules in Gemini, ${mine.rules.length} in the cockpit:\n${text}`,
          );
        }
      }
      const withDefaults = chance(r, 0.6);
      if (withDefaults) {
        for (const b of builtinPolicyFiles()) ours.push(...b.parsed.rules);
        theirs.push(...oracleDefaults);
      }
      const mode = pick(r, MODES);
      const nonInteractive = chance(r, 0.15);
      const trusted = chance(r, 0.8);
      const disableAlwaysAllow = chance(r, 0.1);
      const oracle = new PolicyEngine({
        rules: theirs.map((x) => ({ ...x })),
        approvalMode: ORACLE_MODE[mode],
        nonInteractive,
        disableAlwaysAllow,
        isTrustedFolder: () => trusted,
      });
      for (let c = 0; c < perSet && cases < CASES; c++, cases++) {
        const call = genCall(r);
        const expected = await oracle.check(
          { name: call.tool, args: call.input },
          call.server,
          call.annotations,
          call.subagent,
        );
        const got = decideGemini(call, {
          rules: ours,
          mode,
          nonInteractive,
          disableAlwaysAllow,
          trustedFolder: trusted,
          shell,
          host,
        });
        seen[got.gemini]++;
        if (call.tool === "run_shell_command" || call.tool === "ShellTool") seen.shell++;
        if (got.rule) seen.ruleDecided++;
        if (expected.decision !== got.gemini) {
          disagreements.push(
            `seed ${seed} case ${c}: ${JSON.stringify(call)} mode=${mode} nonInteractive=${nonInteractive} trusted=${trusted} defaults=${withDefaults}: Gemini ${expected.decision} (${expected.rule?.source ?? "no rule"}), cockpit ${got.gemini} (${got.rule?.source ?? "no rule"}; ${got.trace.join(" | ")})`,
          );
        }
      }
    }
    expect(cases).toBe(CASES);
    // The generator must exercise every outcome, rules from files, broken files and many shell commands (the
    // floors scale with the number of cases).
    const share = CASES / 10_000;
    expect(seen.allow).toBeGreaterThan(1000 * share);
    expect(seen.deny).toBeGreaterThan(1000 * share);
    expect(seen.ask_user).toBeGreaterThan(1000 * share);
    expect(seen.shell).toBeGreaterThan(1000 * share);
    expect(seen.ruleDecided).toBeGreaterThan(3000 * share);
    expect(seen.loadedRules).toBeGreaterThan(1000 * share);
    expect(seen.fileErrors).toBeGreaterThan(20 * share);
    console.info(`differential: ${JSON.stringify(seen)}`);
    expect(disagreements.slice(0, 20).join("\n\n"), `${disagreements.length} disagreements`).toBe("");
  }, 240_000);
});
