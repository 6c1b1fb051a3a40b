/** /etc/codex/requirements.toml prefix rules, after openai/codex config/src/requirements_exec_policy.rs. */
import { describe, expect, it } from "vitest";
import { parseRequirements } from "./requirements";

describe("parseRequirements", () => {
  it("reads token / any_of patterns with their lines", () => {
    const text = `[rules]
prefix_rules = [
  { pattern = [{ token = "git" }, { any_of = ["push", "fetch"] }], decision = "prompt", justification = "network" },
  { pattern = [{ any_of = ["rm", "shred"] }], decision = "forbidden" },
]
`;
    const r = parseRequirements("/etc/codex/requirements.toml", text);
    if (!r.ok) throw new Error(r.message);
    expect(r.rules.map((x) => [x.first, x.rest, x.decision, x.source.line, x.source.layer])).toEqual([
      ["git", [["push", "fetch"]], "prompt", 3, "requirements"],
      ["rm", [], "forbidden", 4, "requirements"],
      ["shred", [], "forbidden", 4, "requirements"],
    ]);
  });
  it("reads [[rules.prefix_rules]] tables", () => {
    const r = parseRequirements("r", '[[rules.prefix_rules]]\npattern = [{ token = "curl" }]\ndecision = "prompt"\n');
    expect(r).toMatchObject({ ok: true, rules: [{ first: "curl", decision: "prompt", source: { line: 1 } }] });
  });
  it.each([
    [
      '[rules]\nprefix_rules = [{ pattern = [{ token = "ls" }], decision = "allow" }]\n',
      "has decision 'allow', which is not permitted",
    ],
    ['[rules]\nprefix_rules = [{ pattern = [{ token = "ls" }] }]\n', "is missing a decision"],
    ['[rules]\nprefix_rules = [{ pattern = [], decision = "prompt" }]\n', "has an empty pattern"],
    ['[rules]\nprefix_rules = [{ pattern = [{ token = " " }], decision = "prompt" }]\n', "token cannot be empty"],
    [
      '[rules]\nprefix_rules = [{ pattern = [{ token = "a", any_of = ["b"] }], decision = "prompt" }]\n',
      "set either token or any_of, not both",
    ],
    ['[rules]\nprefix_rules = [{ pattern = [{ any_of = [] }], decision = "prompt" }]\n', "any_of cannot be empty"],
    [
      '[rules]\nprefix_rules = [{ pattern = [{ token = "a" }], decision = "prompt", justification = "" }]\n',
      "has an empty justification",
    ],
    ["[rules]\nprefix_rules = []\n", "rules prefix_rules cannot be empty"],
  ])("refuses %s", (text, message) => {
    expect(parseRequirements("r", text)).toMatchObject({ ok: false, message: expect.stringContaining(message) });
  });
  it("a file without [rules] has no prefix rules", () => {
    expect(parseRequirements("r", 'allowed_approval_policies = ["never"]\n')).toEqual({ ok: true, rules: [] });
  });
});
