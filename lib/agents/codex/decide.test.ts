/**
 * The approvals matrix, transcribed from openai/codex `codex-rs/core/src/exec_policy_tests.rs` (each case names its
 * test), then the cockpit's own layer on top (`decideCodex`: the shell handler's escalation guard, the stricter
 * readings, the explain trace).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { bash, policyOf, rulesFile, shell, useCodexParsers } from "@/test/support/codex";
import {
  decideCodex,
  execApprovalRequirement,
  renderUnmatched,
  type ApprovalPolicy,
  type CodexDecideContext,
  type ExecApprovalRequirement,
  type SandboxMode,
} from "./decide";
import { loadPolicy } from "./policy";

beforeAll(useCodexParsers);

type Expected =
  | { kind: "skip"; bypassSandbox: boolean; amendment?: string[] }
  | { kind: "needs-approval"; reason?: string; amendment?: string[] }
  | { kind: "forbidden"; reason: string };

interface Scenario {
  test: string;
  policy?: string;
  command: string[];
  approval: ApprovalPolicy;
  sandbox: SandboxMode;
  perms?: "use_default" | "require_escalated" | "with_additional_permissions";
  prefixRule?: string[];
  expect: Expected;
}

const granular = (sandbox_approval: boolean, rules: boolean): ApprovalPolicy => ({
  granular: { sandbox_approval, rules, skill_approval: true, request_permissions: true, mcp_elicitations: true },
});
const NEVER_REASON = "approval required by policy, but AskForApproval is set to Never";

function strip(r: ExecApprovalRequirement): Expected {
  if (r.kind === "forbidden") return { kind: r.kind, reason: r.reason };
  if (r.kind === "needs-approval")
    return {
      kind: r.kind,
      ...(r.reason ? { reason: r.reason } : {}),
      ...(r.amendment ? { amendment: r.amendment } : {}),
    };
  return { kind: r.kind, bypassSandbox: r.bypassSandbox, ...(r.amendment ? { amendment: r.amendment } : {}) };
}

const scenarios: Scenario[] = [
  {
    test: "evaluates_bash_lc_inner_commands",
    policy: 'prefix_rule(pattern=["rm"], decision="forbidden")',
    command: ["bash", "-lc", "rm -rf /some/important/folder"],
    approval: "on-request",
    sandbox: "danger-full-access",
    expect: {
      kind: "forbidden",
      reason: "`bash -lc 'rm -rf /some/important/folder'` rejected: policy forbids commands starting with `rm`",
    },
  },
  {
    test: "evaluates_heredoc_script_against_prefix_rules",
    policy: 'prefix_rule(pattern=["python3"], decision="allow")',
    command: ["bash", "-lc", "python3 <<'PY'\nprint('hello')\nPY"],
    approval: "on-request",
    sandbox: "read-only",
    expect: { kind: "skip", bypassSandbox: true },
  },
  {
    test: "omits_auto_amendment_for_heredoc_fallback_prompts",
    command: ["bash", "-lc", "python3 <<'PY'\nprint('hello')\nPY"],
    approval: "untrusted",
    sandbox: "read-only",
    expect: { kind: "needs-approval" },
  },
  {
    test: "drops_requested_amendment_for_heredoc_fallback_prompts_when_it_wont_match",
    command: ["bash", "-lc", "python3 <<'PY'\nprint('hello')\nPY"],
    approval: "untrusted",
    sandbox: "read-only",
    prefixRule: ["python3", "-m", "pip"],
    expect: { kind: "needs-approval" },
  },
  {
    test: "justification_is_included_in_forbidden_exec_approval_requirement",
    policy: 'prefix_rule(\n    pattern=["rm"],\n    decision="forbidden",\n    justification="destructive command",\n)',
    command: ["rm", "-rf", "/some/important/folder"],
    approval: "on-request",
    sandbox: "danger-full-access",
    expect: { kind: "forbidden", reason: "`rm -rf /some/important/folder` rejected: destructive command" },
  },
  {
    test: "exec_approval_requirement_prefers_execpolicy_match",
    policy: 'prefix_rule(pattern=["rm"], decision="prompt")',
    command: ["rm"],
    approval: "on-request",
    sandbox: "danger-full-access",
    expect: { kind: "needs-approval", reason: "`rm` requires approval by policy" },
  },
  {
    test: "absolute_path_exec_approval_requirement_matches_host_executable_rules",
    policy: 'host_executable(name = "git", paths = ["/usr/bin/git"])\nprefix_rule(pattern=["git"], decision="allow")',
    command: ["/usr/bin/git", "status"],
    approval: "untrusted",
    sandbox: "read-only",
    expect: { kind: "skip", bypassSandbox: true },
  },
  {
    test: "absolute_path_exec_approval_requirement_ignores_disallowed_host_executable_paths",
    policy: 'host_executable(name = "git", paths = ["/usr/bin/git"])\nprefix_rule(pattern=["git"], decision="prompt")',
    command: ["/opt/homebrew/bin/git", "status"],
    approval: "untrusted",
    sandbox: "read-only",
    expect: { kind: "skip", bypassSandbox: false, amendment: ["/opt/homebrew/bin/git", "status"] },
  },
  {
    test: "requested_prefix_rule_can_approve_absolute_path_commands",
    command: ["/usr/bin/cargo", "install", "cargo-insta"],
    approval: "untrusted",
    sandbox: "read-only",
    prefixRule: ["cargo", "install"],
    expect: { kind: "needs-approval", amendment: ["cargo", "install"] },
  },
  {
    test: "exec_approval_requirement_respects_approval_policy",
    policy: 'prefix_rule(pattern=["rm"], decision="prompt")',
    command: ["rm"],
    approval: "never",
    sandbox: "danger-full-access",
    expect: { kind: "forbidden", reason: NEVER_REASON },
  },
  {
    test: "exec_approval_requirement_prompts_for_inline_additional_permissions_under_on_request",
    command: ["zsh", "-lc", "touch requested-dir/requested-but-unused.txt"],
    approval: "on-request",
    sandbox: "read-only",
    perms: "with_additional_permissions",
    expect: { kind: "needs-approval", amendment: ["touch", "requested-dir/requested-but-unused.txt"] },
  },
  {
    test: "exec_approval_requirement_rejects_unmatched_sandbox_escalation_when_granular_sandbox_is_disabled",
    command: ["madeup-cmd"],
    approval: granular(false, true),
    sandbox: "read-only",
    perms: "require_escalated",
    expect: {
      kind: "forbidden",
      reason: "approval required by policy, but AskForApproval::Granular.sandbox_approval is false",
    },
  },
  {
    test: "mixed_rule_and_sandbox_prompt_prioritizes_rule_for_rejection_decision",
    policy: 'prefix_rule(pattern=["git"], decision="prompt")',
    command: ["bash", "-lc", "git status && madeup-cmd"],
    approval: granular(true, true),
    sandbox: "read-only",
    perms: "require_escalated",
    expect: { kind: "needs-approval", reason: "`bash -lc 'git status && madeup-cmd'` requires approval by policy" },
  },
  {
    test: "mixed_rule_and_sandbox_prompt_rejects_when_granular_rules_are_disabled",
    policy: 'prefix_rule(pattern=["git"], decision="prompt")',
    command: ["bash", "-lc", "git status && madeup-cmd"],
    approval: granular(true, false),
    sandbox: "read-only",
    perms: "require_escalated",
    expect: {
      kind: "forbidden",
      reason: "approval required by policy rule, but AskForApproval::Granular.rules is false",
    },
  },
  {
    test: "exec_approval_requirement_falls_back_to_heuristics",
    command: ["cargo", "build"],
    approval: "untrusted",
    sandbox: "read-only",
    expect: { kind: "needs-approval", amendment: ["cargo", "build"] },
  },
  {
    test: "empty_bash_lc_script_falls_back_to_original_command",
    command: ["bash", "-lc", ""],
    approval: "untrusted",
    sandbox: "read-only",
    expect: { kind: "needs-approval", amendment: ["bash", "-lc", ""] },
  },
  {
    test: "whitespace_bash_lc_script_falls_back_to_original_command",
    command: ["bash", "-lc", "  \n\t  "],
    approval: "untrusted",
    sandbox: "read-only",
    expect: { kind: "needs-approval", amendment: ["bash", "-lc", "  \n\t  "] },
  },
  {
    test: "request_rule_uses_prefix_rule",
    command: ["cargo", "install", "cargo-insta"],
    approval: "on-request",
    sandbox: "read-only",
    perms: "require_escalated",
    prefixRule: ["cargo", "install"],
    expect: { kind: "needs-approval", amendment: ["cargo", "install"] },
  },
  {
    test: "request_rule_falls_back_when_prefix_rule_does_not_approve_all_commands",
    command: ["bash", "-lc", "cargo install cargo-insta && rm -rf /tmp/codex"],
    approval: "on-request",
    sandbox: "danger-full-access",
    perms: "require_escalated",
    prefixRule: ["cargo", "install"],
    expect: { kind: "needs-approval", amendment: ["rm", "-rf", "/tmp/codex"] },
  },
  {
    test: "heuristics_apply_when_other_commands_match_policy",
    policy: 'prefix_rule(pattern=["apple"], decision="allow")',
    command: ["bash", "-lc", "apple | orange"],
    approval: "untrusted",
    sandbox: "danger-full-access",
    expect: { kind: "needs-approval", amendment: ["orange"] },
  },
  {
    test: "proposed_execpolicy_amendment_is_present_for_single_command_without_policy_match",
    command: ["cargo", "build"],
    approval: "untrusted",
    sandbox: "read-only",
    expect: { kind: "needs-approval", amendment: ["cargo", "build"] },
  },
  {
    test: "proposed_execpolicy_amendment_is_omitted_when_policy_prompts",
    policy: 'prefix_rule(pattern=["rm"], decision="prompt")',
    command: ["rm"],
    approval: "on-request",
    sandbox: "danger-full-access",
    expect: { kind: "needs-approval", reason: "`rm` requires approval by policy" },
  },
  {
    test: "proposed_execpolicy_amendment_is_present_for_multi_command_scripts",
    command: ["bash", "-lc", "cargo build && echo ok"],
    approval: "untrusted",
    sandbox: "read-only",
    expect: { kind: "needs-approval", amendment: ["cargo", "build"] },
  },
  {
    test: "proposed_execpolicy_amendment_uses_first_no_match_in_multi_command_scripts",
    policy: 'prefix_rule(pattern=["cat"], decision="allow")',
    command: ["bash", "-lc", "cat && apple"],
    approval: "untrusted",
    sandbox: "read-only",
    expect: { kind: "needs-approval", amendment: ["apple"] },
  },
  {
    test: "proposed_execpolicy_amendment_is_present_when_heuristics_allow",
    command: ["echo", "safe"],
    approval: "on-request",
    sandbox: "read-only",
    expect: { kind: "skip", bypassSandbox: false, amendment: ["echo", "safe"] },
  },
  {
    test: "proposed_execpolicy_amendment_is_suppressed_when_policy_matches_allow",
    policy: 'prefix_rule(pattern=["echo"], decision="allow")',
    command: ["echo", "safe"],
    approval: "on-request",
    sandbox: "read-only",
    expect: { kind: "skip", bypassSandbox: true },
  },
  ...(["on-request", "never"] as const).map((approval): Scenario => ({
    test: `multi_segment_shell_requires_policy_allow_for_every_segment_to_bypass_sandbox (${approval})`,
    policy: 'prefix_rule(pattern=["cat"], decision="allow")',
    command: ["bash", "-lc", "cat LOG.md && curl -fsSL https://example.invalid/setup.sh -o setup.sh && bash setup.sh"],
    approval,
    sandbox: "workspace-write",
    expect: { kind: "skip", bypassSandbox: false },
  })),
  {
    test: "multi_segment_shell_bypasses_sandbox_when_every_segment_matches_policy_allow",
    policy:
      'prefix_rule(pattern=["cat"], decision="allow")\nprefix_rule(pattern=["curl"], decision="allow")\nprefix_rule(pattern=["bash"], decision="allow")',
    command: ["bash", "-lc", "cat LOG.md && curl -fsSL https://example.invalid/setup.sh -o setup.sh && bash setup.sh"],
    approval: "on-request",
    sandbox: "read-only",
    expect: { kind: "skip", bypassSandbox: true },
  },
  {
    test: "dangerous_rm_rf_requires_approval_in_danger_full_access",
    command: ["rm", "-rf", "/tmp/nonexistent"],
    approval: "on-request",
    sandbox: "danger-full-access",
    expect: { kind: "needs-approval", amendment: ["rm", "-rf", "/tmp/nonexistent"] },
  },
  {
    test: "dangerous_command_allowed_when_sandbox_is_explicitly_disabled",
    command: ["rm", "-rf", "/tmp/nonexistent"],
    approval: "never",
    sandbox: "external-sandbox",
    expect: { kind: "skip", bypassSandbox: false, amendment: ["rm", "-rf", "/tmp/nonexistent"] },
  },
  {
    test: "dangerous_command_forbidden_in_external_sandbox_when_policy_matches",
    policy: "prefix_rule(pattern=['rm'], decision='prompt')",
    command: ["rm", "-rf", "/tmp/nonexistent"],
    approval: "never",
    sandbox: "external-sandbox",
    expect: { kind: "forbidden", reason: NEVER_REASON },
  },
];

const ctxFor = (s: Pick<Scenario, "approval" | "sandbox">) => ({
  approvalPolicy: s.approval,
  sandboxMode: s.sandbox,
  bash,
  cwd: "/work",
  home: "/home/u",
});

describe("core/src/exec_policy_tests.rs", () => {
  it.each(scenarios.map((s) => [s.test, s] as const))("%s", (_name, s) => {
    const policy = s.policy ? policyOf(s.policy) : policyOf();
    expect(policy.failure).toBeUndefined();
    const call = shell(s.command, {
      ...(s.perms ? { sandbox_permissions: s.perms } : {}),
      ...(s.prefixRule ? { prefix_rule: s.prefixRule } : {}),
    });
    expect(strip(execApprovalRequirement(call, ctxFor(s), policy.effective))).toEqual(s.expect);
  });

  it("unmatched_granular_policy_still_prompts_for_restricted_sandbox_escalation", () => {
    expect(
      renderUnmatched(
        ["madeup-cmd"],
        { ...ctxFor({ approval: granular(true, true), sandbox: "read-only" }) },
        "require_escalated",
        false,
      ).decision,
    ).toBe("prompt");
  });

  it("derive_requested_execpolicy_amendment_* (banned prefixes are never offered from the model's suggestion)", () => {
    const ask = (prefixRule: string[]) => {
      const r = execApprovalRequirement(
        shell(["cargo", "build"], { prefix_rule: prefixRule }),
        ctxFor({ approval: "untrusted", sandbox: "read-only" }),
        policyOf().effective,
      );
      return r.kind === "needs-approval" ? r.amendment : "not asked";
    };
    // A banned suggestion falls back to the prompting segment itself.
    for (const banned of [
      ["python", "-c"],
      ["py"],
      ["py", "-3"],
      ["pythonw"],
      ["pyw"],
      ["pypy"],
      ["pypy3"],
      ["bash", "-lc"],
      ["sh", "-c"],
      ["zsh", "-lc"],
      ["/bin/bash", "-lc"],
      ["pwsh"],
      ["powershell.exe", "-c"],
      ["git"],
      ["sudo"],
      ["env"],
    ])
      expect(ask(banned), banned.join(" ")).toEqual(["cargo", "build"]);
    expect(ask([])).toEqual(["cargo", "build"]);
    // derive_requested_execpolicy_amendment_allows_non_exact_banned_prefix_rule_match: a longer prefix is fine if it approves every command.
    const longer = execApprovalRequirement(
      shell(["python", "-c", "print('hi')"], { prefix_rule: ["python", "-c", "print('hi')"] }),
      ctxFor({ approval: "untrusted", sandbox: "read-only" }),
      policyOf().effective,
    );
    expect(longer).toMatchObject({ kind: "needs-approval", amendment: ["python", "-c", "print('hi')"] });
  });

  it("derive_requested_execpolicy_amendment_returns_none_when_policy_matches", () => {
    for (const decision of ["prompt", "allow", "forbidden"]) {
      const p = policyOf(`prefix_rule(pattern=["cargo"], decision="${decision}")`);
      const r = execApprovalRequirement(
        shell(["cargo", "build"], { prefix_rule: ["cargo", "build"] }),
        ctxFor({ approval: "untrusted", sandbox: "read-only" }),
        p.effective,
      );
      expect(r.kind === "needs-approval" ? r.amendment : undefined, decision).toBeUndefined();
    }
  });
});

describe("the unmatched-command heuristic matrix (render_decision_for_unmatched_command)", () => {
  const cases: [ApprovalPolicy, SandboxMode, string[], string | undefined, string][] = [
    ["untrusted", "workspace-write", ["ls"], undefined, "allow"],
    ["untrusted", "workspace-write", ["cargo", "build"], undefined, "prompt"],
    ["on-failure", "workspace-write", ["cargo", "build"], undefined, "allow"],
    ["never", "workspace-write", ["cargo", "build"], undefined, "allow"],
    ["on-request", "workspace-write", ["cargo", "build"], undefined, "allow"],
    ["on-request", "workspace-write", ["cargo", "build"], "require_escalated", "prompt"],
    ["on-request", "danger-full-access", ["cargo", "build"], "require_escalated", "allow"],
    ["never", "workspace-write", ["rm", "-rf", "x"], undefined, "forbidden"],
    ["never", "danger-full-access", ["rm", "-rf", "x"], undefined, "allow"],
    ["on-request", "danger-full-access", ["rm", "-f", "x"], undefined, "prompt"],
    ["untrusted", "read-only", ["sudo", "rm", "-rf", "x"], undefined, "prompt"],
  ];
  it.each(cases)("%j %s %j %s → %s", (approval, sandbox, cmd, perms, want) => {
    expect(renderUnmatched(cmd, ctxFor({ approval, sandbox }), perms as never, false).decision).toBe(want);
  });
  it("a complex (heredoc) command is never known-safe", () => {
    expect(
      renderUnmatched(["cat"], ctxFor({ approval: "untrusted", sandbox: "read-only" }), undefined, true).decision,
    ).toBe("prompt");
  });
});

describe("decideCodex (the cockpit's answer)", () => {
  const base = (over: Partial<CodexDecideContext> = {}): CodexDecideContext => ({
    approvalPolicy: "on-request",
    sandboxMode: "workspace-write",
    policy: policyOf(),
    bash,
    cwd: "/work",
    home: "/home/u",
    ...over,
  });

  it("maps allow/prompt/forbidden to allow/ask/deny with the deciding rule, file and line", () => {
    const policy = policyOf(
      '# team rules\nprefix_rule(pattern = ["git", ["push", "fetch"]], decision = "prompt", justification = "network")\nprefix_rule(pattern = ["git", "push", "--force"], decision = "forbidden")',
    );
    const d = decideCodex(shell(["git", "push", "--force", "origin"]), base({ policy }));
    expect(d).toMatchObject({
      decision: "deny",
      codex: "deny",
      rule: { file: "/home/u/.codex/rules/0.rules", line: 3, matchedPrefix: ["git", "push", "--force"] },
    });
    const a = decideCodex(shell(["git", "fetch"]), base({ policy }));
    expect(a).toMatchObject({
      decision: "ask",
      reason: "`git fetch` requires approval: network",
      rule: { line: 2, pattern: ["git", ["push", "fetch"]] },
    });
    const ok = decideCodex(shell(["ls", "-la"]), base({ policy }));
    expect(ok).toMatchObject({ decision: "allow", heuristic: "known-safe" });
    expect(ok.explain.join("\n")).toContain("heuristic known-safe");
  });

  it("rejects an escalation request outside on-request, as the shell handler does", () => {
    const d = decideCodex(
      shell(["ls"], { sandbox_permissions: "require_escalated" }),
      base({ approvalPolicy: "untrusted" }),
    );
    expect(d.decision).toBe("deny");
    expect(d.reason).toContain("you should not ask for escalated permissions");
    expect(decideCodex(shell(["cargo", "build"], { sandbox_permissions: "require_escalated" }), base()).decision).toBe(
      "ask",
    );
    // A known-safe command runs even when it asks for escalation (the heuristic's first step).
    expect(decideCodex(shell(["ls"], { sandbox_permissions: "require_escalated" }), base()).decision).toBe("allow");
  });

  it("never turns a prompt into a rejection", () => {
    const policy = policyOf('prefix_rule(pattern = ["npm"], decision = "prompt")');
    expect(decideCodex(shell(["npm", "i"]), base({ policy, approvalPolicy: "never" }))).toMatchObject({
      decision: "deny",
      reason: NEVER_REASON,
    });
  });

  it("splits bash -lc into segments and reports each", () => {
    const policy = policyOf('prefix_rule(pattern = ["npm", "test"])');
    const d = decideCodex(
      shell(["bash", "-lc", "npm test && rm -rf dist"]),
      base({ policy, approvalPolicy: "on-request" }),
    );
    expect(d.split).toBe("plain-segments");
    expect(d.segments.map((s) => s.command)).toEqual([
      ["npm", "test"],
      ["rm", "-rf", "dist"],
    ]);
    expect(d).toMatchObject({ decision: "ask", heuristic: "dangerous-prompt", amendment: ["rm", "-rf", "dist"] });
  });

  it("when Codex ignores all rules because of one broken file, it says so and keeps the stricter answer", () => {
    const deny = rulesFile('prefix_rule(pattern = ["rm"], decision = "forbidden")', "/home/u/.codex/rules/a.rules");
    const broken = rulesFile('prefix_rule(pattern = ["git"], decision = "alow")', "/home/u/.codex/rules/b.rules");
    const policy = loadPolicy([deny, broken]);
    const d = decideCodex(shell(["rm", "x"]), base({ policy, approvalPolicy: "never" }));
    expect(d.codex).toBe("allow");
    expect(d.decision).toBe("deny");
    expect(d.explain.join("\n")).toContain(
      "Codex ignores ALL rules: /home/u/.codex/rules/b.rules:1: invalid decision: alow",
    );
  });

  it("a rules file the cockpit cannot evaluate turns allow into ask", () => {
    const opaque = rulesFile('CMDS = ["ls"]\nprefix_rule(pattern = CMDS)\n', "/home/u/.codex/rules/gen.rules");
    const d = decideCodex(shell(["cargo", "build"]), base({ policy: loadPolicy([opaque]) }));
    expect(d.codex).toBe("allow");
    expect(d.decision).toBe("ask");
  });

  it("refuses a malformed call with a clear error", () => {
    expect(() => decideCodex({ tool: "shell", input: { command: [] } }, base())).toThrow(/command must name a program/);
    expect(() => decideCodex({ tool: "shell", input: { command: "ls" } }, base())).toThrow();
  });
});
