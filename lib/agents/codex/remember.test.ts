/**
 * "Don't ask again", transcribed from openai/codex `codex-rs/execpolicy/src/amend.rs` (mod tests),
 * `codex-rs/execpolicy/tests/basic.rs` (append_allow_prefix_rule_dedupes_existing_rule) and
 * `codex-rs/core/src/exec_policy_tests.rs` (append_execpolicy_amendment_*).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { policyOf, useCodexParsers } from "@/test/support/codex";
import { amendmentLine, appendAllowPrefixRule, BANNED_PREFIX_SUGGESTIONS, isBannedPrefix } from "./remember";
import { matchRules } from "./policy";

beforeAll(useCodexParsers);

describe("amend.rs", () => {
  it("appends_rule_and_creates_directories (the line format)", () => {
    expect(appendAllowPrefixRule("", ["echo", "Hello, world!"])).toBe(
      'prefix_rule(pattern=["echo", "Hello, world!"], decision="allow")\n',
    );
  });
  it("appends_rule_without_duplicate_newline", () => {
    expect(appendAllowPrefixRule('prefix_rule(pattern=["ls"], decision="allow")\n', ["echo", "Hello, world!"])).toBe(
      'prefix_rule(pattern=["ls"], decision="allow")\nprefix_rule(pattern=["echo", "Hello, world!"], decision="allow")\n',
    );
  });
  it("inserts_newline_when_missing_before_append", () => {
    expect(appendAllowPrefixRule('prefix_rule(pattern=["ls"], decision="allow")', ["echo", "Hello, world!"])).toBe(
      'prefix_rule(pattern=["ls"], decision="allow")\nprefix_rule(pattern=["echo", "Hello, world!"], decision="allow")\n',
    );
  });
  it("append_allow_prefix_rule_dedupes_existing_rule (tests/basic.rs)", () => {
    const once = appendAllowPrefixRule("", ["python3"])!;
    expect(once).toBe('prefix_rule(pattern=["python3"], decision="allow")\n');
    expect(appendAllowPrefixRule(once, ["python3"])).toBeUndefined();
    expect(appendAllowPrefixRule(once.replace("\n", "\r\n"), ["python3"])).toBeUndefined();
  });
  it("append_execpolicy_amendment_rejects_empty_prefix", () => {
    expect(() => amendmentLine([])).toThrow("prefix rule requires at least one token");
  });
  it("append_execpolicy_amendment_updates_policy_and_file (the appended rule matches longer commands)", () => {
    const text = appendAllowPrefixRule("", ["echo", "hello"])!;
    expect(text).toBe('prefix_rule(pattern=["echo", "hello"], decision="allow")\n');
    const p = policyOf(text);
    expect(
      matchRules(p.effective, ["echo", "hello", "world"], { resolveHostExecutables: true, cwd: "/" })[0]!.decision,
    ).toBe("allow");
  });
  it("tokens are JSON-encoded (serde_json::to_string) and read back the same", () => {
    const tokens = ["say", 'a "quoted"\tword\n', "back\\slash", "ünï"];
    const text = appendAllowPrefixRule("# mine\n", tokens)!;
    expect(text).toBe(
      '# mine\nprefix_rule(pattern=["say", "a \\"quoted\\"\\tword\\n", "back\\\\slash", "ünï"], decision="allow")\n',
    );
    const p = policyOf(text);
    expect(p.effective.rulesByProgram.get("say")![0]!.rest).toEqual(tokens.slice(1));
  });
  it("keeps every byte of an existing file with comments", () => {
    const before = '# remembered by Codex\n\nprefix_rule(pattern=["ls"], decision="allow")  # ok\n';
    const after = appendAllowPrefixRule(before, ["npm", "test"])!;
    expect(after.startsWith(before)).toBe(true);
  });
});

describe("BANNED_PREFIX_SUGGESTIONS (core/src/exec_policy.rs)", () => {
  it("matches whole prefixes only", () => {
    expect(BANNED_PREFIX_SUGGESTIONS).toHaveLength(46);
    expect(isBannedPrefix(["git"])).toBe(true);
    expect(isBannedPrefix(["node", "-e"])).toBe(true);
    expect(isBannedPrefix(["git", "status"])).toBe(false);
    expect(isBannedPrefix(["python", "-c", "print('hi')"])).toBe(false);
  });
});
