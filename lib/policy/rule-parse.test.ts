import { dialectOf } from "@/lib/agents/dialects";
import { describe, expect, it } from "vitest";
import { formatRule, parseRule } from "./rule-parse";
import { src } from "@/test/support/policy";
import type { Action, Agent } from "./types";

const parse = (text: string, action: Action = "deny", agent: Agent = "commandcode") =>
  parseRule(text, action, { dialect: dialectOf(agent), source: src() });

describe("rule grammar", () => {
  const ok: [string, Action, string, unknown][] = [
    ["Shell", "allow", "Shell", null],
    ["shell", "allow", "Shell", null],
    ["Bash(npm run build)", "allow", "Shell", { kind: "shell", pattern: "npm run build" }],
    ["Shell(git status:*)", "allow", "Shell", { kind: "shell", pattern: "git status *" }],
    ["Shell()", "allow", "Shell", null],
    ["Shell(*)", "allow", "Shell", null],
    ["READ(./.env)", "deny", "Read", { kind: "path", pattern: "./.env" }],
    ["Edit(src/**)", "allow", "Edit", { kind: "path", pattern: "src/**" }],
    ["WebFetch(domain:example.com)", "allow", "WebFetch", { kind: "domain", pattern: "example.com" }],
    ["WebFetch(domain:*.Example.com)", "allow", "WebFetch", { kind: "domain", pattern: "*.example.com" }],
    ["mcp__github__get_issue", "allow", "mcp__github__get_issue", null],
    ["mcp__github__*", "allow", "mcp__github__*", null],
    ["mcp__github__get_*", "allow", "mcp__github__get_*", null],
    ["mcp__*", "deny", "mcp__*", null],
    ["*", "ask", "*", null],
    ["edit_*", "deny", "edit_*", null],
    ["Shell(run_in_background:true)", "deny", "Shell", { kind: "param", name: "run_in_background", value: "true" }],
    ["Agent(model:opus)", "ask", "Agent", { kind: "param", name: "model", value: "opus" }],
    ["Agent(Explore)", "deny", "Agent", { kind: "name", pattern: "Explore" }],
    ["Task", "deny", "Agent", null],
    ["Shell(git:* push)", "deny", "Shell", { kind: "shell", pattern: "git:* push" }],
    ["Shell(docker run a:b)", "allow", "Shell", { kind: "shell", pattern: "docker run a:b" }],
    ["write_file", "allow", "write_file", null],
  ];
  it.each(ok)("%s (%s) parses", (text, action, tool, spec) => {
    const r = parse(text, action);
    expect(r.ok, r.ok ? "" : r.error).toBe(true);
    if (!r.ok) return;
    expect(r.value.tool).toBe(tool);
    if (spec === null) expect(r.value.specifier).toBeNull();
    else expect(r.value.specifier).toMatchObject(spec as object);
    expect(r.value.text).toBe(text);
  });

  const bad: [string, Action, RegExp][] = [
    ["", "allow", /empty/],
    ["Shell(git status", "allow", /malformed/],
    ["Shell(run_in_background:true)", "allow", /deny\/ask only/],
    ["Shell(command:rm *)", "deny", /specifier itself/],
    ["Read(file_path:/x)", "deny", /specifier itself/],
    ["WebFetch(url:https://x)", "deny", /specifier itself/],
    ["WebFetch(example.com)", "allow", /domain:HOST/],
    ["*", "allow", /ignored in allow/],
    ["mcp__*", "allow", /ignored in allow/],
    ["edit_*", "allow", /ignored in allow/],
    ["mcp__github__get_issue(x)", "allow", /takes no specifier/],
    ["Bad Name", "deny", /malformed|invalid/],
    ["mcp__*(x)", "deny", /no specifier/],
  ];
  it.each(bad)("%j (%s) is rejected with a reason", (text, action, re) => {
    const r = parse(text, action);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(re);
  });

  it("never throws on junk", () => {
    for (const t of ["(((", ")", "Shell(()", "\u0000", "Read(\u0000)", 42 as unknown as string, "Shell(:*)"])
      expect(() => parse(t)).not.toThrow();
  });

  it("formats in each dialect", () => {
    const r = parse("Bash(git log:*)", "allow", "claude-code");
    if (!r.ok) throw new Error(r.error);
    expect(formatRule(r.value, dialectOf("claude-code"))).toBe("Bash(git log *)");
    expect(formatRule(r.value, dialectOf("commandcode"))).toBe("Shell(git log *)");
    expect(formatRule(r.value, dialectOf("mevedel"))).toBe('("Bash" :pattern "git log *")');
    const w = parse("WebFetch(domain:example.com)", "allow");
    if (w.ok) expect(formatRule(w.value, dialectOf("commandcode"))).toBe("WebFetch(domain:example.com)");
  });
});
