/** Round-trip edits of real-looking Codex rules files: only the edited call changes, comments stay. */
import { beforeAll, describe, expect, it } from "vitest";
import { python, rulesFile, useCodexParsers } from "@/test/support/codex";
import {
  addPrefixRule,
  isNarrowerPattern,
  narrowCall,
  removeAlternative,
  revokeCall,
  RulesEditRefused,
  setCallDecision,
} from "./rules-edit";

beforeAll(useCodexParsers);

const TEAM = `# Team rules for this repo — reviewed 2026-11
# Keep git pushes behind a prompt.

prefix_rule(
    pattern = ["git", ["push", "fetch"]],
    decision = "prompt",
    justification = "network access",  # asked in review
    match = ["git push origin main"],
)

# Package scripts are fine.
prefix_rule(pattern = [["npm", "pnpm"], "test"], decision = "allow")  # CI parity
prefix_rule(pattern=["curl"], decision="allow")
host_executable(name = "git", paths = ["/usr/bin/git"])
`;

const DEFAULT_RULES = `prefix_rule(pattern=["npm", "test"], decision="allow")
prefix_rule(pattern=["curl"], decision="allow")
prefix_rule(pattern=["cargo", "build"], decision="allow")
`;

describe("revoke", () => {
  it("removes one call and its line, keeps every other byte", () => {
    const f = rulesFile(TEAM);
    const { text } = revokeCall(f, 13, python);
    expect(text).toBe(TEAM.replace('prefix_rule(pattern=["curl"], decision="allow")\n', ""));
  });
  it("removes a multi-line call, keeping the comments around it", () => {
    const { text, file } = revokeCall(rulesFile(TEAM), 4, python);
    expect(text).toContain("# Keep git pushes behind a prompt.\n\n\n# Package scripts are fine.");
    expect(file.prefixRules.map((r) => r.first)).toEqual(["npm", "pnpm", "curl"]);
  });
  it("keeps a trailing comment on its own line", () => {
    const { text } = revokeCall(rulesFile(TEAM), 12, python);
    expect(text).toContain('# Package scripts are fine.\n# CI parity\nprefix_rule(pattern=["curl"]');
  });
  it("revokes what Codex remembered (default.rules)", () => {
    const { text } = revokeCall(rulesFile(DEFAULT_RULES, "/h/.codex/rules/default.rules"), 2, python);
    expect(text).toBe(
      'prefix_rule(pattern=["npm", "test"], decision="allow")\nprefix_rule(pattern=["cargo", "build"], decision="allow")\n',
    );
  });
  it("refuses a line without a rule", () => {
    expect(() => revokeCall(rulesFile(TEAM), 1, python)).toThrow(RulesEditRefused);
  });
});

describe("narrow", () => {
  it("narrows a pattern in place", () => {
    const { text } = narrowCall(rulesFile(TEAM), 13, ["curl", "-s"], python);
    expect(text).toBe(TEAM.replace('pattern=["curl"]', 'pattern=["curl", "-s"]'));
  });
  it("drops one first-position alternative", () => {
    const { text, file } = removeAlternative(rulesFile(TEAM), 12, 0, "pnpm", python);
    expect(text).toBe(TEAM.replace('[["npm", "pnpm"], "test"]', '["npm", "test"]'));
    expect(file.prefixRules.filter((r) => r.source.line === 12).map((r) => r.first)).toEqual(["npm"]);
  });
  it("refuses an edit that would break the rule's own match example", () => {
    // The example "git push origin main" no longer matches once push is removed: Codex would reject the file.
    expect(() => removeAlternative(rulesFile(TEAM), 4, 1, "push", python)).toThrow(/fail its own examples/);
  });
  it("refuses a wider pattern", () => {
    expect(() => narrowCall(rulesFile(TEAM), 12, [["npm", "pnpm", "yarn"], "test"], python)).toThrow(/not narrower/);
    expect(isNarrowerPattern(["git", "push"], ["git"])).toBe(true);
    expect(isNarrowerPattern(["git"], ["git", "push"])).toBe(false);
    expect(isNarrowerPattern(["git", "push"], ["git", ["push", "pull"]])).toBe(true);
  });
});

describe("decision", () => {
  it("replaces an existing decision", () => {
    const { text } = setCallDecision(rulesFile(TEAM), 13, "prompt", python);
    expect(text).toBe(
      TEAM.replace(
        'prefix_rule(pattern=["curl"], decision="allow")',
        'prefix_rule(pattern=["curl"], decision="prompt")',
      ),
    );
  });
  it("inserts a decision after the pattern when there is none", () => {
    const { text } = setCallDecision(rulesFile('prefix_rule(pattern = ["ls"])  # ok\n'), 1, "forbidden", python);
    expect(text).toBe('prefix_rule(pattern = ["ls"], decision = "forbidden")  # ok\n');
  });
});

describe("add", () => {
  it("appends a rule on its own line", () => {
    const { text, file } = addPrefixRule(
      rulesFile(TEAM),
      { pattern: ["make", ["test", "lint"]], decision: "allow", justification: "local only" },
      python,
    );
    expect(text).toBe(
      TEAM + 'prefix_rule(pattern=["make", ["test", "lint"]], decision="allow", justification="local only")\n',
    );
    expect(file.status.kind).toBe("ok");
  });
  it("refuses an exact duplicate and a blank justification", () => {
    expect(() => addPrefixRule(rulesFile(DEFAULT_RULES), { pattern: ["curl"], decision: "allow" }, python)).toThrow(
      /already there/,
    );
    expect(() =>
      addPrefixRule(rulesFile(""), { pattern: ["ls"], decision: "allow", justification: " " }, python),
    ).toThrow(/justification/);
  });
});

describe("files the cockpit does not edit", () => {
  it("refuses a broken file (it never rewrites it)", () => {
    expect(() => revokeCall(rulesFile('prefix_rule(pattern=["ls"], decision="nope")\n'), 1, python)).toThrow(
      /broken file/,
    );
  });
  it("refuses an opaque file and says why", () => {
    expect(() => revokeCall(rulesFile('X = ["ls"]\nprefix_rule(pattern=["rm"])\n'), 2, python)).toThrow(/read-only/);
  });
});
