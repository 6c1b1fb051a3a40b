/**
 * Transcribed from openai/codex `codex-rs/execpolicy/tests/basic.rs` (each case names its test function):
 * parsing, first-position alternatives, tail alternatives, strictest decision, match/not_match, host executables.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { policyOf, rulesFile, useCodexParsers } from "@/test/support/codex";
import { checkMultiple, loadPolicy, matchRules, type MatchOptions } from "./policy";
import type { HeuristicsRuleMatch, RuleMatch } from "./types";

beforeAll(useCodexParsers);

const opts: MatchOptions = { resolveHostExecutables: false, cwd: "/work" };
const resolve: MatchOptions = { resolveHostExecutables: true, cwd: "/work" };
const allowAll = (command: readonly string[]): HeuristicsRuleMatch => ({
  kind: "heuristics",
  command: command.slice(),
  decision: "allow",
  reason: "known-safe",
});
const promptAll = (command: readonly string[]): HeuristicsRuleMatch => ({
  kind: "heuristics",
  command: command.slice(),
  decision: "prompt",
  reason: "untrusted",
});
/** The comparable part of a match: what `codex execpolicy check` prints. */
const shape = (m: RuleMatch) =>
  m.kind === "prefix"
    ? {
        matchedPrefix: m.matchedPrefix,
        decision: m.decision,
        ...(m.resolvedProgram ? { resolvedProgram: m.resolvedProgram } : {}),
        ...(m.justification ? { justification: m.justification } : {}),
      }
    : { heuristics: m.command, decision: m.decision };
const check = (p: ReturnType<typeof policyOf>, cmd: string[], fb = allowAll, o = opts) => {
  const e = checkMultiple(p.effective, [cmd], fb, o);
  return { decision: e.decision, matched: e.matchedRules.map(shape) };
};

describe("execpolicy/tests/basic.rs", () => {
  it("basic_match", () => {
    const p = policyOf('prefix_rule(\n    pattern = ["git", "status"],\n)');
    expect(check(p, ["git", "status"])).toEqual({
      decision: "allow",
      matched: [{ matchedPrefix: ["git", "status"], decision: "allow" }],
    });
  });

  it("justification_is_attached_to_forbidden_matches", () => {
    const p = policyOf(
      'prefix_rule(\n    pattern = ["rm"],\n    decision = "forbidden",\n    justification = "destructive command",\n)',
    );
    expect(check(p, ["rm", "-rf", "/some/important/folder"])).toEqual({
      decision: "forbidden",
      matched: [{ matchedPrefix: ["rm"], decision: "forbidden", justification: "destructive command" }],
    });
  });

  it("justification_can_be_used_with_allow_decision", () => {
    const p = policyOf('prefix_rule(pattern = ["ls"], decision = "allow", justification = "safe and commonly used")');
    expect(check(p, ["ls", "-l"]).matched).toEqual([
      { matchedPrefix: ["ls"], decision: "allow", justification: "safe and commonly used" },
    ]);
  });

  it("justification_cannot_be_empty", () => {
    const f = rulesFile('prefix_rule(pattern = ["ls"], decision = "prompt", justification = "   ")');
    expect(f.status).toMatchObject({ kind: "broken", message: "justification cannot be empty" });
  });

  it("parses_multiple_policy_files", () => {
    const p = policyOf(
      'prefix_rule(\n    pattern = ["git"],\n    decision = "prompt",\n)',
      'prefix_rule(\n    pattern = ["git", "commit"],\n    decision = "forbidden",\n)',
    );
    expect(p.effective.rulesByProgram.get("git")!.map((r) => [r.first, r.rest, r.decision])).toEqual([
      ["git", [], "prompt"],
      ["git", ["commit"], "forbidden"],
    ]);
    expect(check(p, ["git", "status"])).toEqual({
      decision: "prompt",
      matched: [{ matchedPrefix: ["git"], decision: "prompt" }],
    });
    expect(check(p, ["git", "commit", "-m", "hi"])).toEqual({
      decision: "forbidden",
      matched: [
        { matchedPrefix: ["git"], decision: "prompt" },
        { matchedPrefix: ["git", "commit"], decision: "forbidden" },
      ],
    });
  });

  it("only_first_token_alias_expands_to_multiple_rules", () => {
    const p = policyOf('prefix_rule(\n    pattern = [["bash", "sh"], ["-c", "-l"]],\n)');
    expect(p.effective.rulesByProgram.get("bash")!.map((r) => r.rest)).toEqual([[["-c", "-l"]]]);
    expect(p.effective.rulesByProgram.get("sh")!.map((r) => r.rest)).toEqual([[["-c", "-l"]]]);
    expect(check(p, ["bash", "-c", "echo", "hi"]).matched).toEqual([
      { matchedPrefix: ["bash", "-c"], decision: "allow" },
    ]);
    expect(check(p, ["sh", "-l", "echo", "hi"]).matched).toEqual([{ matchedPrefix: ["sh", "-l"], decision: "allow" }]);
  });

  it("tail_aliases_are_not_cartesian_expanded", () => {
    const p = policyOf(
      'prefix_rule(\n    pattern = ["npm", ["i", "install"], ["--legacy-peer-deps", "--no-save"]],\n)',
    );
    expect(p.effective.rulesByProgram.get("npm")).toHaveLength(1);
    expect(check(p, ["npm", "i", "--legacy-peer-deps"]).matched).toEqual([
      { matchedPrefix: ["npm", "i", "--legacy-peer-deps"], decision: "allow" },
    ]);
    expect(check(p, ["npm", "install", "--no-save", "leftpad"]).matched).toEqual([
      { matchedPrefix: ["npm", "install", "--no-save"], decision: "allow" },
    ]);
  });

  it("match_and_not_match_examples_are_enforced", () => {
    const p = policyOf(`prefix_rule(
    pattern = ["git", "status"],
    match = [["git", "status"], "git status"],
    not_match = [
        ["git", "--config", "color.status=always", "status"],
        "git --config color.status=always status",
    ],
)`);
    expect(p.failure).toBeUndefined();
    expect(check(p, ["git", "status"]).matched).toEqual([{ matchedPrefix: ["git", "status"], decision: "allow" }]);
    expect(check(p, ["git", "--config", "color.status=always", "status"]).matched).toEqual([
      { heuristics: ["git", "--config", "color.status=always", "status"], decision: "allow" },
    ]);
  });

  it("a failing match example is a load error (and empties the policy)", () => {
    const p = policyOf('prefix_rule(pattern = ["git", "status"], match = ["git push"])');
    expect(p.failure).toMatchObject({ line: 1, message: expect.stringContaining("git push") });
    expect(p.effective.rulesByProgram.size).toBe(0);
    const q = policyOf('prefix_rule(pattern = ["git"], not_match = [["git", "push"]])');
    expect(q.failure?.message).toContain("not_match");
  });

  it("strictest_decision_wins_across_matches", () => {
    const p = policyOf(
      'prefix_rule(\n    pattern = ["git"],\n    decision = "prompt",\n)\nprefix_rule(\n    pattern = ["git", "commit"],\n    decision = "forbidden",\n)',
    );
    expect(check(p, ["git", "commit", "-m", "hi"]).decision).toBe("forbidden");
    expect(check(p, ["git", "commit", "-m", "hi"]).matched).toHaveLength(2);
  });

  it("strictest_decision_across_multiple_commands", () => {
    const p = policyOf(
      'prefix_rule(pattern = ["git"], decision = "prompt")\nprefix_rule(pattern = ["git", "commit"], decision = "forbidden")',
    );
    const e = checkMultiple(
      p.effective,
      [
        ["git", "status"],
        ["git", "commit", "-m", "hi"],
      ],
      allowAll,
      opts,
    );
    expect(e.decision).toBe("forbidden");
    expect(e.matchedRules.map(shape)).toEqual([
      { matchedPrefix: ["git"], decision: "prompt" },
      { matchedPrefix: ["git"], decision: "prompt" },
      { matchedPrefix: ["git", "commit"], decision: "forbidden" },
    ]);
  });

  it("heuristics_match_is_returned_when_no_policy_matches", () => {
    const p = policyOf("");
    expect(check(p, ["python"], promptAll)).toEqual({
      decision: "prompt",
      matched: [{ heuristics: ["python"], decision: "prompt" }],
    });
  });

  it("parses_host_executable_paths", () => {
    const f = rulesFile(
      'host_executable(\n    name = "git",\n    paths = [\n        "/opt/homebrew/bin/git",\n        "/usr/bin/git",\n        "/usr/bin/git",\n    ],\n)',
    );
    expect(f.hostExecutables[0]!.paths).toEqual(["/opt/homebrew/bin/git", "/usr/bin/git"]);
  });

  it("host_executable_rejects_non_absolute_path", () => {
    expect(rulesFile('host_executable(name = "git", paths = ["git"])').status).toMatchObject({
      kind: "broken",
      message: expect.stringContaining("host_executable paths must be absolute"),
    });
  });

  it("host_executable_rejects_name_with_path_separator", () => {
    expect(rulesFile('host_executable(name = "/usr/bin/git", paths = ["/usr/bin/git"])').status).toMatchObject({
      kind: "broken",
      message: expect.stringContaining("host_executable name must be a bare executable name"),
    });
  });

  it("host_executable_rejects_path_with_wrong_basename", () => {
    expect(rulesFile('host_executable(name = "git", paths = ["/usr/bin/rg"])').status).toMatchObject({
      kind: "broken",
      message: expect.stringContaining("must have basename `git`"),
    });
  });

  it("host_executable_last_definition_wins", () => {
    const p = policyOf(
      'host_executable(name = "git", paths = ["/usr/bin/git"])',
      'host_executable(name = "git", paths = ["/opt/homebrew/bin/git"])',
    );
    expect(p.effective.hostExecutables.get("git")!.paths).toEqual(["/opt/homebrew/bin/git"]);
  });

  it("host_executable_resolution_uses_basename_rule_when_allowed", () => {
    const p = policyOf(
      'prefix_rule(pattern = ["git", "status"], decision = "prompt")\nhost_executable(name = "git", paths = ["/usr/bin/git"])',
    );
    expect(check(p, ["/usr/bin/git", "status"], allowAll, resolve)).toEqual({
      decision: "prompt",
      matched: [{ matchedPrefix: ["git", "status"], decision: "prompt", resolvedProgram: "/usr/bin/git" }],
    });
  });

  it("prefix_rule_examples_honor_host_executable_resolution", () => {
    const p = policyOf(`prefix_rule(
    pattern = ["git", "status"],
    match = [["/usr/bin/git", "status"]],
    not_match = [["/opt/homebrew/bin/git", "status"]],
)
host_executable(name = "git", paths = ["/usr/bin/git"])`);
    expect(p.failure).toBeUndefined();
  });

  it("host_executable_resolution_respects_explicit_empty_allowlist", () => {
    const p = policyOf(
      'prefix_rule(pattern = ["git"], decision = "prompt")\nhost_executable(name = "git", paths = [])',
    );
    expect(check(p, ["/usr/bin/git", "status"], allowAll, resolve)).toEqual({
      decision: "allow",
      matched: [{ heuristics: ["/usr/bin/git", "status"], decision: "allow" }],
    });
  });

  it("host_executable_resolution_ignores_path_not_in_allowlist", () => {
    const p = policyOf(
      'prefix_rule(pattern = ["git"], decision = "prompt")\nhost_executable(name = "git", paths = ["/usr/bin/git"])',
    );
    expect(check(p, ["/opt/homebrew/bin/git", "status"], allowAll, resolve).decision).toBe("allow");
  });

  it("host_executable_resolution_falls_back_without_mapping", () => {
    const p = policyOf('prefix_rule(pattern = ["git"], decision = "prompt")');
    expect(check(p, ["/usr/bin/git", "status"], allowAll, resolve).matched).toEqual([
      { matchedPrefix: ["git"], decision: "prompt", resolvedProgram: "/usr/bin/git" },
    ]);
  });

  it("host_executable_resolution_does_not_override_exact_match", () => {
    const p = policyOf(
      'prefix_rule(pattern = ["/usr/bin/git"], decision = "allow")\nprefix_rule(pattern = ["git"], decision = "prompt")\nhost_executable(name = "git", paths = ["/usr/bin/git"])',
    );
    expect(check(p, ["/usr/bin/git", "status"], allowAll, resolve)).toEqual({
      decision: "allow",
      matched: [{ matchedPrefix: ["/usr/bin/git"], decision: "allow" }],
    });
  });

  it("network_rules_compile_into_domain_lists (parsed with their decisions)", () => {
    const f = rulesFile(`network_rule(host = "google.com", protocol = "http", decision = "allow")
network_rule(host = "api.github.com", protocol = "https", decision = "allow")
network_rule(host = "blocked.example.com", protocol = "https", decision = "deny")
network_rule(host = "prompt-only.example.com", protocol = "https", decision = "prompt")`);
    expect(f.networkRules.map((r) => [r.host, r.protocol, r.decision])).toEqual([
      ["google.com", "http", "allow"],
      ["api.github.com", "https", "allow"],
      ["blocked.example.com", "https", "forbidden"],
      ["prompt-only.example.com", "https", "prompt"],
    ]);
  });

  it("network_rule_rejects_wildcard_hosts", () => {
    expect(
      rulesFile('network_rule(host = "*.example.com", protocol = "http", decision = "allow")').status,
    ).toMatchObject({
      kind: "broken",
      message: "network_rule host must be a specific host; wildcards are not allowed",
    });
  });
});

describe("whole-policy-empty (core/src/exec_policy.rs load_exec_policy_with_warning)", () => {
  it("one broken file drops the forbidden rules of every other file, and says where", () => {
    const good = rulesFile('prefix_rule(pattern = ["rm"], decision = "forbidden")', "/home/u/.codex/rules/a.rules");
    const bad = rulesFile(
      'prefix_rule(pattern = ["git"])\nprefix_rule(pattern = ["x"], decision = "maybe")\n',
      "/home/u/.codex/rules/b.rules",
    );
    const p = loadPolicy([good, bad]);
    expect(p.failure).toEqual({ file: "/home/u/.codex/rules/b.rules", line: 2, message: "invalid decision: maybe" });
    expect(matchRules(p.effective, ["rm", "-rf", "/"], opts)).toEqual([]);
    // The cockpit still knows the rules it read.
    expect(matchRules(p.readable, ["rm", "-rf", "/"], opts)[0]!.decision).toBe("forbidden");
  });

  it("a syntax error names its line", () => {
    expect(rulesFile('# ok\nprefix_rule(pattern = ["git"]\n').status).toMatchObject({ kind: "broken" });
    expect(
      rulesFile('prefix_rule(pattern=["git"])\nprefix_rule(pattern=["a"] decision="allow")\n').status,
    ).toMatchObject({ kind: "broken", line: 2 });
  });
});

describe("reader limits, checked against codex execpolicy check 0.169.0", () => {
  it.each([
    ['prefix_rule(["git"], "prompt")', "ok"],
    ['prefix_rule(pattern=["git"],);', "ok"],
    ['prefix_rule(pattern=[["git"]], decision="prompt")', "ok"],
    ["prefix_rule(pattern=['g\\x69t'])", "ok"],
    ['host_executable(name="git", paths=["/usr/bin/git"], )', "ok"],
    ['prefix_rule(pattern=["git"], decision=None)', "opaque"],
    ['prefix_rule(pattern=["git"], foo=1)', "broken"],
    ['prefix_rule(pattern=["git"], match="git push")', "broken"],
    ['prefix_rule(pattern=["git"], justification="a" "b")', "broken"],
    ['prefix_rule(pattern=["git"], decision="allow", decision="prompt")', "broken"],
    ['prefix_rule(pattern=[], decision="prompt")', "broken"],
    ['prefix_rule(pattern=["git", []], decision="prompt")', "broken"],
    ['load("a.rules", "b")', "broken"],
    ['print("x")\nprefix_rule(pattern=["git"])', "broken"],
    ['def f():\n  prefix_rule(pattern=["git"], decision="forbidden")\nf()', "opaque"],
    ['x = ["git"]\nprefix_rule(pattern=x)', "opaque"],
    ['for x in ["git"]:\n  prefix_rule(pattern=[x])', "opaque"],
    ['prefix_rule(pattern=[f"git"])', "opaque"],
  ])("%s → %s", (src, status) => {
    expect(rulesFile(src).status.kind).toBe(status);
  });

  it("keeps the literal calls of an opaque file and their lines", () => {
    const f = rulesFile(
      'prefix_rule(pattern = ["ls"])\nx = 1\nprefix_rule(pattern = ["rm"], decision = "forbidden")\n',
    );
    expect(f.status).toMatchObject({ kind: "opaque", line: 2 });
    expect(f.prefixRules.map((r) => [r.first, r.source.line])).toEqual([
      ["ls", 1],
      ["rm", 3],
    ]);
  });

  it("records each call's line and text range", () => {
    const src = '# keep me\nprefix_rule(\n    pattern = ["git", ["push", "fetch"]],\n    decision = "prompt",\n)\n';
    const f = rulesFile(src);
    const c = f.calls[0]!;
    expect([c.source.line, c.source.endLine]).toEqual([2, 5]);
    expect(src.slice(c.source.start, c.source.end)).toBe(src.slice(10, -1));
    expect(src.slice(c.args.pattern!.start, c.args.pattern!.end)).toBe('["git", ["push", "fetch"]]');
  });

  it("relative program paths resolve against the working directory for the basename fallback", () => {
    const p = policyOf('prefix_rule(pattern = ["git", "push"], decision = "forbidden")');
    expect(matchRules(p.effective, ["./git", "push"], resolve)[0]).toMatchObject({ resolvedProgram: "/work/git" });
    expect(matchRules(p.effective, ["~/bin/git", "push"], { ...resolve, home: "/home/u" })[0]).toMatchObject({
      resolvedProgram: "/home/u/bin/git",
    });
    expect(matchRules(p.effective, ["./git", "push"], opts)).toEqual([]);
  });
});
