import { describe, expect, it } from "vitest";
import { parseCursorConfig } from "./config";

const F = "/w/.cursor/cli.json";

describe("parseCursorConfig (https://cursor.com/docs/cli/reference/configuration)", () => {
  it("reads the documented minimal config", () => {
    const p = parseCursorConfig(
      JSON.stringify(
        {
          version: 1,
          editor: { vimMode: false },
          permissions: { allow: ["Shell(ls)", "Shell(echo)"], deny: ["Shell(rm)"] },
        },
        null,
        2,
      ),
      "/h/.cursor/cli-config.json",
      "global",
    );
    expect(p).toMatchObject({ valid: true, strictJson: true, definesAllow: true, warnings: [] });
    expect(p.rules.map((r) => [r.action, r.text, r.index, r.line])).toEqual([
      ["allow", "Shell(ls)", 0, 8],
      ["allow", "Shell(echo)", 1, 9],
      ["deny", "Shell(rm)", 0, 12],
    ]);
  });

  it("an empty or missing file is a valid empty store", () => {
    expect(parseCursorConfig("", F, "workspace")).toMatchObject({ valid: true, rules: [], definesAllow: false });
  });

  it.each([
    ["{ not json", /not valid JSON/],
    ["[1, 2]", /not a JSON object/],
    ['{"permissions": {"allow": ["Shell(ls)", 3]}}', /permissions\.allow\.1/],
    ['{"permissions": {"allow": "Shell(ls)"}}', /permissions\.allow/],
    ['{"permissions": 5}', /permissions/],
    ['{"permissions": {"allow": []}, "permissions": {"allow": ["Shell(rm)"]}}', /duplicate key permissions/],
  ])("%s is invalid with a reason", (text, why) => {
    const p = parseCursorConfig(text, F, "workspace");
    expect(p.valid).toBe(false);
    expect(p.error).toMatch(why);
    expect(p.rules).toEqual([]);
  });

  it("comments are read but flagged: Cursor reads pure JSON", () => {
    const p = parseCursorConfig('{\n  // team rules\n  "permissions": { "deny": ["Shell(rm)"], },\n}', F, "workspace");
    expect(p).toMatchObject({ valid: true, strictJson: false, definesAllow: false });
    expect(p.warnings.join()).toMatch(/pure JSON/);
    expect(p.rules[0]).toMatchObject({ text: "Shell(rm)", line: 3 });
  });

  it("project files may only set permissions", () => {
    const p = parseCursorConfig('{"model": {"id": "x"}, "permissions": {}}', F, "workspace");
    expect(p.warnings).toEqual(["model: only permissions can be set in a project cli.json; Cursor ignores it"]);
  });

  it("malformed tokens are listed with their error", () => {
    const p = parseCursorConfig('{"permissions": {"allow": ["Bash(ls)"]}}', F, "workspace");
    expect(p.rules[0]).toMatchObject({ token: null, error: expect.stringMatching(/Bash/) });
  });
});
