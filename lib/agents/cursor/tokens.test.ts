import { describe, expect, it } from "vitest";
import { formatToken, parseToken } from "./tokens";

describe("parseToken (https://cursor.com/docs/cli/reference/permissions, Permission types)", () => {
  it.each([
    ["Shell(ls)", { kind: "Shell", base: "ls", args: null }],
    ["Shell(curl:*)", { kind: "Shell", base: "curl", args: "*" }],
    ["Read(src/**/*.ts)", { kind: "Read", pattern: "src/**/*.ts" }],
    ["Write(**/.env*)", { kind: "Write", pattern: "**/.env*" }],
    ["WebFetch(*.Example.com)", { kind: "WebFetch", pattern: "*.example.com" }],
    ["Mcp(datadog:*)", { kind: "Mcp", server: "datadog", tool: "*", form: "colon" }],
    ["Mcp(*:search)", { kind: "Mcp", server: "*", tool: "search", form: "colon" }],
    ["Mcp(datadog, query)", { kind: "Mcp", server: "datadog", tool: "query", form: "comma" }],
    ["Mcp(datadog)", { kind: "Mcp", server: "datadog", tool: null, form: "server" }],
  ])("%s", (text, want) => {
    const p = parseToken(text);
    expect(p.ok).toBe(true);
    if (p.ok) {
      expect(p.token).toMatchObject(want);
      expect(parseToken(formatToken(p.token))).toMatchObject({ ok: true, token: want });
    }
  });

  it.each([
    ["shell(ls)", /Cursor spells it Shell/],
    ["Bash(ls)", /unknown permission type Bash/],
    ["Shell()", /empty/],
    ["Shell(:*)", /command base/],
    ["Shell(git:)", /empty argument pattern/],
    ["Mcp(:x)", /both a server and a tool/],
    ["ls", /not a permission token/],
  ])("%s is refused with a reason", (text, why) => {
    const p = parseToken(text);
    expect(p.ok).toBe(false);
    if (!p.ok) expect(p.error).toMatch(why);
  });

  it("notes the forms whose meaning the docs leave open", () => {
    const notes = (t: string) => {
      const p = parseToken(t);
      return p.ok ? p.token.notes.join(" ") : "";
    };
    expect(notes("Shell(git status)")).toMatch(/first token/);
    expect(notes("Read(~/x)")).toMatch(/~/);
    expect(notes("WebFetch(https://x.com/a)")).toMatch(/not a domain/);
    expect(notes("Shell(ls)")).toBe("");
  });
});
