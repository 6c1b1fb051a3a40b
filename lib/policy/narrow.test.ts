import { dialectOf } from "@/lib/agents/dialects";
import { describe, expect, it } from "vitest";
import { parseMevedelRuleText } from "./mevedel-rules";
import { isNarrower } from "./narrow";
import { parseRule } from "./rule-parse";
import { src } from "@/test/support/policy";
import type { Action, Agent, EntrySpec, Grant } from "./types";

function rule(text: string, action: Action = "allow", agent: Agent = "commandcode"): EntrySpec {
  const dialect = dialectOf(agent);
  const r =
    agent === "mevedel"
      ? parseMevedelRuleText(text, src(), dialect)
      : parseRule(text, action, { dialect, source: src() });
  if (!r.ok) throw new Error(r.error);
  return { kind: "rule", action: r.value.action, rule: r.value };
}
const grant = (path: string, access: Grant["access"], recursive: boolean): EntrySpec => ({
  kind: "grant",
  grant: { path, access, recursive },
});
const profile = (network: boolean, fileSystem: Grant[]): EntrySpec => ({
  kind: "profile",
  profile: { network, fileSystem },
});

describe("isNarrower: proved", () => {
  const proved: [string, EntrySpec, EntrySpec][] = [
    ["Shell(git:*) → Shell(git status:*)", rule("Shell(git:*)"), rule("Shell(git status:*)")],
    ["Shell(git *) → Shell(git status)", rule("Shell(git *)"), rule("Shell(git status)")],
    ["Shell(npm run*) → Shell(npm run build)", rule("Shell(npm run*)"), rule("Shell(npm run build)")],
    [
      "Bash(git:*) → Bash(git log *) (claude)",
      rule("Bash(git:*)", "allow", "claude-code"),
      rule("Bash(git log *)", "allow", "claude-code"),
    ],
    ["Edit → Edit(src/**)", rule("Edit"), rule("Edit(src/**)")],
    ["Edit(src/**) → Edit(src/lib/**)", rule("Edit(src/**)"), rule("Edit(src/lib/**)")],
    ["Edit(src/**) → Edit(src/a.ts)", rule("Edit(src/**)"), rule("Edit(src/a.ts)")],
    ["Edit → Write(src/**)", rule("Edit"), rule("Write(src/**)")],
    ["mcp__github__* → mcp__github__get_*", rule("mcp__github__*"), rule("mcp__github__get_*")],
    ["mcp__github__* → mcp__github__get_issue", rule("mcp__github__*"), rule("mcp__github__get_issue")],
    ["mcp__github → mcp__github__get_issue", rule("mcp__github"), rule("mcp__github__get_issue")],
    [
      "WebFetch(domain:*.x.com) → WebFetch(domain:api.x.com)",
      rule("WebFetch(domain:*.x.com)"),
      rule("WebFetch(domain:api.x.com)"),
    ],
    ["allow → ask (same matcher)", rule("Shell(git:*)"), rule("Shell(git:*)", "ask")],
    ["allow → deny (narrower matcher)", rule("Shell(git:*)"), rule("Shell(git push:*)", "deny")],
    ["ask → deny (same matcher)", rule("Shell(git push:*)", "ask"), rule("Shell(git push:*)", "deny")],
    ["deny → deny (broader matcher)", rule("Shell(git push --force*)", "deny"), rule("Shell(git push:*)", "deny")],
    ["grant recursive → exact", grant("/data", "write", true), grant("/data", "write", false)],
    ["grant write → read", grant("/data", "write", true), grant("/data", "read", true)],
    ["grant to a descendant", grant("/data", "read", true), grant("/data/sub", "read", true)],
    ["profile network t → nil", profile(true, []), profile(false, [])],
    [
      "profile file-system entry removed",
      profile(false, [
        { path: "~/.npm", access: "write", recursive: true },
        { path: "/x", access: "read", recursive: false },
      ]),
      profile(false, [{ path: "~/.npm", access: "write", recursive: true }]),
    ],
    [
      "profile file-system entry narrowed",
      profile(false, [{ path: "~/.npm", access: "write", recursive: true }]),
      profile(false, [{ path: "~/.npm", access: "read", recursive: true }]),
    ],
    [
      "mevedel :pattern git* → git log*",
      rule('("Bash" :pattern "git*" :action allow)', "allow", "mevedel"),
      rule('("Bash" :pattern "git log*" :action allow)', "allow", "mevedel"),
    ],
  ];
  it.each(proved)("%s", (_n, a, b) => expect(isNarrower(a, b)).toEqual({ proved: true }));
});

describe("isNarrower: refused with a reason", () => {
  const refused: [string, EntrySpec, EntrySpec][] = [
    ["identical", rule("Shell(git:*)"), rule("Shell(git:*)")],
    ["broader shell", rule("Shell(git status:*)"), rule("Shell(git:*)")],
    ["gitk is not git *", rule("Shell(git *)"), rule("Shell(gitk)")],
    ["inner glob not provable", rule("Shell(git * main)"), rule("Shell(git checkout main)")],
    ["Edit(src/**) → Edit", rule("Edit(src/**)"), rule("Edit")],
    ["Edit(src/**) → Edit(src/../etc/**)", rule("Edit(src/**)"), rule("Edit(src/../etc/**)")],
    ["anchor changes", rule("Edit(src/**)"), rule("Edit(/src/lib/**)")],
    ["Write → Edit", rule("Write"), rule("Edit")],
    ["deny → allow", rule("Shell(git:*)", "deny"), rule("Shell(git:*)", "allow")],
    ["ask → allow", rule("Shell(git:*)", "ask"), rule("Shell(git status:*)", "allow")],
    ["a smaller deny denies less", rule("Shell(git push:*)", "deny"), rule("Shell(git push --force*)", "deny")],
    ["mcp__github__get_* → mcp__github__*", rule("mcp__github__get_*"), rule("mcp__github__*")],
    ["other server", rule("mcp__github__*"), rule("mcp__gitlab__get_x")],
    ["apex not in *.x.com", rule("WebFetch(domain:*.x.com)"), rule("WebFetch(domain:x.com)")],
    ["grant exact → recursive", grant("/data", "read", false), grant("/data", "read", true)],
    ["grant read → write", grant("/data", "read", true), grant("/data", "write", true)],
    ["grant sibling", grant("/data", "read", true), grant("/database", "read", true)],
    ["exact grant to a descendant", grant("/data", "read", false), grant("/data/sub", "read", false)],
    ["profile network turned on", profile(false, []), profile(true, [])],
    ["profile entry added", profile(false, []), profile(false, [{ path: "/x", access: "read", recursive: false }])],
    ["rule → grant", rule("Edit"), grant("/x", "read", false)],
  ];
  it.each(refused)("%s", (_n, a, b) => {
    const p = isNarrower(a, b);
    expect(p.proved).toBe(false);
    if (!p.proved) expect(p.reason).toMatch(/^cannot prove narrower: .*; revoke and add instead$/);
  });
});
