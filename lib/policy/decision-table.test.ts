import { beforeAll, describe, expect, it } from "vitest";
import { decide } from "./decide";
import { loadShellParser } from "../agents/shared/shell-parser";
import { ctx, edit, HOME, MODES, read, rules, sh, write, useShell } from "@/test/support/policy";
import type { Action, PolicyContext, ToolCall } from "./types";

beforeAll(async () => useShell(await loadShellParser()));

type Row = [
  name: string,
  call: ToolCall,
  expected: [Action, Action, Action, Action, Action],
  over?: Partial<PolicyContext>,
];

const R = rules({
  deny: ["Shell(git push --force*)", "Read(secrets/**)"],
  ask: ["Shell(git pull:*)"],
  allow: ["Shell(npm test:*)", "Shell(rm -rf dist)"],
});

// Seed 002, "Таблица решений": operation × default, accept-edits, plan, yolo, dont-ask.
const TABLE: Row[] = [
  ["matches a deny rule (shell)", sh("git push --force origin main"), ["deny", "deny", "deny", "deny", "deny"]],
  ["matches a deny rule (read)", read("secrets/key.txt"), ["deny", "deny", "deny", "deny", "deny"]],
  ["matches an ask rule", sh("git pull --rebase"), ["ask", "ask", "ask", "ask", "deny"]],
  ["matches an allow rule", sh("npm test -- --watch=false"), ["allow", "allow", "deny", "allow", "allow"]],
  ["direct read inside the workspace", read("src/index.ts"), ["allow", "allow", "allow", "allow", "allow"]],
  [
    "search inside the workspace",
    { tool: "grep", input: { pattern: "deprecated", path: "src" } },
    ["allow", "allow", "allow", "allow", "allow"],
  ],
  ["direct read outside the workspace", read("/etc/hosts"), ["ask", "ask", "ask", "allow", "deny"]],
  ["read in the OS temp dir", read("/tmp/scratch.txt"), ["allow", "allow", "allow", "allow", "allow"]],
  ["write in the OS temp dir", write("/tmp/out.txt"), ["ask", "allow", "deny", "allow", "deny"]],
  ["sensitive write in the OS temp dir", write("/tmp/.env"), ["ask", "ask", "deny", "allow", "deny"]],
  [
    "read in a registered skill dir",
    read(`${HOME}/.commandcode/skills/x/SKILL.md`),
    ["allow", "allow", "allow", "allow", "allow"],
  ],
  [
    "web fetch",
    { tool: "web_fetch", input: { url: "https://example.com/a" } },
    ["allow", "allow", "allow", "allow", "allow"],
  ],
  ["web search", { tool: "web_search", input: { query: "x" } }, ["allow", "allow", "allow", "allow", "allow"]],
  ["ask_user_question", { tool: "ask_user_question", input: {} }, ["allow", "allow", "allow", "allow", "allow"]],
  ["agent", { tool: "agent", input: { prompt: "x" } }, ["allow", "allow", "allow", "allow", "allow"]],
  [
    "run_command (withdrawn in plan)",
    { tool: "run_command", input: { name: "/review" } },
    ["allow", "allow", "deny", "allow", "allow"],
  ],
  ["read-only shell: git status", sh("git status"), ["allow", "allow", "allow", "allow", "allow"]],
  [
    "read-only shell: cat README.md | head -5",
    sh("cat README.md | head -5"),
    ["allow", "allow", "allow", "allow", "allow"],
  ],
  [
    "read-only compound: cat file | head -5 || echo none",
    sh("cat file | head -5 || echo none"),
    ["allow", "allow", "allow", "allow", "allow"],
  ],
  ["secret-like read through a file tool", read(".env"), ["allow", "allow", "allow", "allow", "allow"]],
  ["secret-like read through shell: cat .env", sh("cat .env"), ["ask", "ask", "deny", "allow", "deny"]],
  ["secret-like read through shell: head id_rsa", sh("head id_rsa"), ["ask", "ask", "deny", "allow", "deny"]],
  ["edit in the workspace", edit("src/a.ts"), ["ask", "allow", "deny", "allow", "deny"]],
  ["protected write: .env", write(".env"), ["ask", "ask", "deny", "allow", "deny"]],
  ["protected write: .git/config", edit(".git/config"), ["ask", "ask", "deny", "allow", "deny"]],
  ["direct write outside the workspace", write("/opt/x/file.txt"), ["ask", "ask", "deny", "allow", "deny"]],
  ["plan-file write", write(`${HOME}/.commandcode/plans/plan.md`), ["ask", "ask", "allow", "allow", "deny"]],
  [
    "safe file shell in the workspace",
    sh("mkdir -p build && touch build/x"),
    ["ask", "allow", "deny", "allow", "deny"],
  ],
  ["safe file shell: non-recursive rm", sh("rm build/x.o"), ["ask", "allow", "deny", "allow", "deny"]],
  ["safe file shell: sed -i", sh("sed -i 's/a/b/' src/a.ts"), ["ask", "allow", "deny", "allow", "deny"]],
  ["read-only shell with cwd outside", sh("ls"), ["ask", "ask", "ask", "allow", "deny"], { cwd: "/srv/other" }],
  [
    "mutating shell with cwd outside",
    sh("npm install"),
    ["ask", "ask", "deny", "allow", "deny"],
    { cwd: "/srv/other" },
  ],
  ["shell arguments outside the workspace", sh("cat /etc/hosts"), ["allow", "allow", "allow", "allow", "allow"]],
  ["other mutating shell", sh("npm install left-pad"), ["ask", "ask", "deny", "allow", "deny"]],
  ["MCP / unknown tool", { tool: "mcp__jira__create_issue", input: {} }, ["ask", "ask", "deny", "allow", "deny"]],
  ["root delete: rm -rf /", sh("rm -rf /"), ["ask", "ask", "deny", "ask", "deny"]],
  ["home delete: rm -rf ~", sh("rm -rf ~"), ["ask", "ask", "deny", "ask", "deny"]],
  ["recursive delete in the workspace", sh("rm -rf build"), ["ask", "ask", "deny", "allow", "deny"]],
  ["recursive delete with a content allow rule", sh("rm -rf dist"), ["allow", "allow", "deny", "allow", "allow"]],
];

describe("seed 002 decision table (Command Code)", () => {
  for (const [name, call, expected, over] of TABLE) {
    it.each(MODES.map((m, i) => [m, expected[i]] as const))(`${name} — %s → %s`, (mode, want) => {
      const d = decide(call, ctx({ mode, rules: R, ...over }));
      expect(d.decision, JSON.stringify(d.trace)).toBe(want);
    });
  }
});

describe("ladder steps", () => {
  const cases: [string, ToolCall, string, Partial<PolicyContext>][] = [
    ["deny rule", sh("git push --force"), "deny-rule", {}],
    ["ask rule", sh("git pull"), "ask-rule", {}],
    ["external dir", read("/etc/passwd"), "external-dir", {}],
    ["plan mode", edit("a.ts"), "plan-mode", { mode: "plan" }],
    ["malformed write", { tool: "write_file", input: { content: "x" } }, "malformed-write", {}],
    ["read-only", sh("ls -la"), "read-only", {}],
    ["root/home delete", sh("rm -rf $HOME"), "root-home-delete", { mode: "yolo" }],
    ["yolo", sh("npm i"), "yolo", { mode: "yolo" }],
    ["sensitive write", write(".bashrc"), "sensitive-write", {}],
    ["allow rule", sh("npm test"), "allow-rule", {}],
    ["accept edits", edit("a.ts"), "accept-edits", { mode: "accept-edits" }],
    ["fallback", sh("make"), "fallback", {}],
    ["always allowed", { tool: "ask_user_question", input: {} }, "always-allowed", {}],
  ];
  it.each(cases)("%s", (_n, call, step, over) => {
    const d = decide(call, ctx({ rules: R, ...over }));
    expect(d.step).toBe(step);
    expect(d.trace.at(-1)?.outcome).toBe("decided");
  });

  it("reports the rule, scope and store that decided", () => {
    const d = decide(sh("git push --force"), ctx({ rules: R }));
    expect(d).toMatchObject({
      decision: "deny",
      rule: "Shell(git push --force*)",
      scope: "workspace",
      store: "/w/.commandcode/settings.json",
      cause: "rule",
    });
  });

  it("marks safety prompts so approvals are not remembered", () => {
    expect(decide(write(".env"), ctx()).safetyCheck).toBe(true);
    expect(decide(sh("rm -rf /"), ctx()).safetyCheck).toBe(true);
    expect(decide(sh("git pull"), ctx({ rules: R })).safetyCheck).toBe(true);
    expect(decide(edit("a.ts"), ctx()).safetyCheck).toBe(false);
  });

  it("always-allowed tools bypass deny rules", () => {
    expect(decide({ tool: "agent", input: {} }, ctx({ rules: rules({ deny: ["*"] }) })).decision).toBe("allow");
  });

  it("disableBypass evaluates yolo as default", () => {
    const d = decide(sh("npm install"), ctx({ mode: "yolo", disableBypass: true }));
    expect(d.decision).toBe("ask");
    expect(d.warnings.join()).toMatch(/disableBypass/);
  });

  it.each(["auto-accept", "acceptEdits"])("mode alias %s behaves as accept-edits", (mode) => {
    expect(decide(edit("a.ts"), ctx({ mode })).decision).toBe("allow");
  });
  it.each(["bypass", "bypassPermissions"])("mode alias %s behaves as yolo", (mode) => {
    expect(decide(sh("npm i"), ctx({ mode })).decision).toBe("allow");
  });
  it.each(["manual", "standard"])("mode alias %s behaves as default", (mode) => {
    expect(decide(edit("a.ts"), ctx({ mode })).decision).toBe("ask");
  });
  it("dontAsk behaves as dont-ask", () => {
    expect(decide(edit("a.ts"), ctx({ mode: "dontAsk" })).decision).toBe("deny");
  });

  it("dont-ask with a matching allow rule allows an edit", () => {
    const r = rules({ allow: ["Edit(src/**)", "Write(src/generated/**)"] });
    expect(decide(edit("src/a.ts"), ctx({ mode: "dont-ask", rules: r })).decision).toBe("allow");
    expect(decide(write("src/generated/x.ts"), ctx({ mode: "dont-ask", rules: r })).decision).toBe("allow");
    expect(decide(edit("lib/a.ts"), ctx({ mode: "dont-ask", rules: r })).decision).toBe("deny");
  });

  it("a content allow rule passes a sensitive write; a bare Edit does not", () => {
    expect(decide(write(".env.local"), ctx({ rules: rules({ allow: ["Edit(.env.local)"] }) })).decision).toBe("allow");
    expect(decide(write(".env.local"), ctx({ rules: rules({ allow: ["Edit"] }) })).decision).toBe("ask");
    expect(
      decide(edit(".commandcode/settings.json"), ctx({ rules: rules({ allow: ["Edit(.commandcode/settings.json)"] }) }))
        .decision,
    ).toBe("allow");
  });

  it("accept-edits still asks for recursive deletes and sensitive targets", () => {
    expect(decide(sh("rm -r build"), ctx({ mode: "accept-edits" })).decision).toBe("ask");
    expect(decide(sh("find . -name '*.o' -delete"), ctx({ mode: "accept-edits" })).decision).toBe("ask");
    expect(decide(sh("touch .env"), ctx({ mode: "accept-edits" })).decision).toBe("ask");
    expect(decide(sh("cp a /etc/x"), ctx({ mode: "accept-edits" })).decision).toBe("ask");
  });

  it("additionalDirectories count as workspace", () => {
    expect(decide(read("/srv/shared/a.ts"), ctx({ additionalDirectories: ["/srv/shared"] })).decision).toBe("allow");
    expect(
      decide(edit("~/shared-libs/a.ts"), ctx({ mode: "accept-edits", additionalDirectories: ["~/shared-libs"] }))
        .decision,
    ).toBe("allow");
  });

  it("a symlink leading out of the temp dir gets the normal check", () => {
    const resolveSymlink = (p: string) => (p === "/tmp/link" ? "/etc/shadow" : null);
    expect(decide(read("/tmp/link"), ctx({ resolveSymlink })).decision).toBe("ask");
  });

  it("never throws on odd input", () => {
    for (const call of [
      { tool: "", input: {} },
      { tool: "shell_command", input: { command: 42 } },
      { tool: "read_file", input: null as unknown as Record<string, unknown> },
    ]) {
      expect(() => decide(call, ctx())).not.toThrow();
    }
  });
});

describe("rule index cache", () => {
  it("sees rules appended to the same array", () => {
    const rs = rules({});
    const c = ctx({ rules: rs });
    expect(decide(sh("make"), c).decision).toBe("ask");
    rs.push(...rules({ deny: ["Shell(make)"] }));
    expect(decide(sh("make"), c).decision).toBe("deny");
    const session = rules({});
    const c2 = ctx({ rules: rs, sessionRules: session });
    expect(decide(sh("npm i"), c2).decision).toBe("ask");
    session.push(...rules({ allow: ["Shell(npm i)"] }, "commandcode", { scope: "session", store: "session:1" }));
    expect(decide(sh("npm i"), c2)).toMatchObject({ decision: "allow", scope: "session", store: "session:1" });
  });
});

describe("subagents (seed 002, 'MCP и субагенты')", () => {
  const sub = (over: Partial<PolicyContext> = {}) => ctx({ subagent: true, rules: R, ...over });
  it.each([
    ["an ordinary prompt is allowed", edit("src/a.ts"), {}, "allow"],
    ["an ordinary shell prompt is allowed", sh("npm install"), {}, "allow"],
    ["deny rules still deny", sh("git push --force"), {}, "deny"],
    ["an explicit ask rule fails closed", sh("git pull"), {}, "deny"],
    ["a sensitive write fails closed", write(".env"), {}, "deny"],
    ["a write outside the workspace fails closed", write("/opt/x"), {}, "deny"],
    ["a destructive command fails closed", sh("rm -rf build"), {}, "deny"],
    ["root delete fails closed", sh("rm -rf /"), {}, "deny"],
    ["plan mode still refuses writes", edit("a.ts"), { mode: "plan" }, "deny"],
    ["reads stay free", read("a.ts"), {}, "allow"],
  ] as [string, ToolCall, Partial<PolicyContext>, Action][])("%s", (_n, call, over, want) =>
    expect(decide(call, sub(over)).decision).toBe(want),
  );
});
