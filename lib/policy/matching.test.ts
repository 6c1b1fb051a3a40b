import { beforeAll, describe, expect, it } from "vitest";
import { callFacts } from "./call";
import { allowMatch } from "./context";
import { decide } from "./decide";
import { compileRules } from "./match";
import { loadShellParser } from "../agents/shared/shell-parser";
import { ctx, edit, HOME, read, rules, sh, src, WS, useShell } from "@/test/support/policy";
import type { Action, Agent, ToolCall } from "./types";

beforeAll(async () => useShell(await loadShellParser()));

/** Does a single rule of `action` match the call (allow: at the matcher, since reads are free anyway)? */
function hits(
  rule: string,
  call: ToolCall,
  action: Action = "deny",
  agent: Agent = "commandcode",
  extra = {},
): boolean {
  if (action === "allow") {
    const c = ctx({
      agent,
      rules: rules({ allow: [rule] }, agent, src("workspace", "/w/.x/settings.json", WS)),
      ...extra,
    });
    return allowMatch(compileRules(c.rules, c).allow, callFacts(call, c), c) !== null;
  }
  const d = decide(
    call,
    ctx({ agent, rules: rules({ [action]: [rule] }, agent, src("workspace", "/w/.x/settings.json", WS)), ...extra }),
  );
  return d.rule === rule;
}

describe("seed 002 'Написание правил' examples", () => {
  const cases: [string, ToolCall, boolean][] = [
    ["Shell", sh("anything at all"), true],
    ["Shell(git status)", sh("git status"), true],
    ["Shell(git status)", sh("git status --short"), true],
    ["Shell(git status)", sh("git statusx"), false],
    ["Shell(npm run *)", sh("npm run build"), true],
    ["Shell(npm run *)", sh("npm install"), false],
    ["Read(./.env)", read(".env"), true],
    ["Read(./.env)", read("sub/.env"), false],
    ["Edit(src/**)", edit("src/a/b.ts"), true],
    ["Edit(src/**)", edit("lib/a.ts"), false],
    ["WebFetch(domain:example.com)", { tool: "web_fetch", input: { url: "https://example.com/x" } }, true],
    ["WebFetch(domain:example.com)", { tool: "web_fetch", input: { url: "https://evil.com/example.com" } }, false],
    ["mcp__github__get_issue", { tool: "mcp__github__get_issue", input: {} }, true],
    ["mcp__github__get_issue", { tool: "mcp__github__list_issues", input: {} }, false],
    ["mcp__github__*", { tool: "mcp__github__create_pr", input: {} }, true],
    ["mcp__github__get_*", { tool: "mcp__github__get_pr", input: {} }, true],
    ["mcp__github__get_*", { tool: "mcp__github__create_pr", input: {} }, false],
    ["mcp__*", { tool: "mcp__linear__x", input: {} }, true],
    ["*", { tool: "mcp__linear__x", input: {} }, true],
    ["*", read("a"), true],
    ["Shell(run_in_background:true)", sh("npm run dev", { run_in_background: true }), true],
    ["Shell(run_in_background:true)", sh("npm run dev"), false],
    ["edit_*", edit("a.ts"), true],
  ];
  it.each(cases)("deny %s vs %j → %s", (rule, call, want) => expect(hits(rule, call)).toBe(want));

  it("tool names are case-insensitive", () => {
    expect(hits("SHELL(git push:*)", sh("git push"))).toBe(true);
    expect(hits("bash(git push:*)", sh("git push"))).toBe(true);
  });

  it("allow ignores bare * and mcp__* (they do not parse) but honours mcp__server__get_*", () => {
    expect(hits("mcp__github__get_*", { tool: "mcp__github__get_issue", input: {} }, "allow")).toBe(true);
  });

  it("friendly names cover model tools: Read = read_file, read_directory, glob, grep; Edit = edit_file, write_file; Write = write_file", () => {
    for (const tool of ["read_file", "read_directory", "glob", "grep"])
      expect(hits("Read(secrets/**)", { tool, input: { path: "secrets/x" } })).toBe(true);
    expect(hits("Edit(x.ts)", { tool: "write_file", input: { file_path: "x.ts" } })).toBe(true);
    expect(hits("Write(x.ts)", { tool: "write_file", input: { file_path: "x.ts" } })).toBe(true);
    expect(hits("Write(x.ts)", edit("x.ts"))).toBe(false);
    expect(hits("Shell", { tool: "monitor_command", input: { command: "tail -f log" } })).toBe(true);
    expect(hits("Shell", { tool: "kill_shell", input: { shell_id: "1" } })).toBe(true);
  });
});

describe("seed 002 'Шаблоны shell' examples", () => {
  const cases: [string, string, Action, boolean][] = [
    ["Shell(npm run build)", "npm run build", "allow", true],
    ["Shell(npm run *)", "npm run test", "allow", true],
    ["Shell(git * main)", "git checkout main", "allow", true],
    ["Shell(git * main)", "git merge main", "allow", true],
    ["Shell(git:*)", "git log --oneline", "allow", true],
    ["Shell(git:*)", "gitk", "allow", false],
    ["Shell(ls *)", "ls -la", "allow", true],
    ["Shell(ls *)", "lsof", "allow", false],
    ["Shell(ls*)", "ls -la", "allow", true],
    ["Shell(ls*)", "lsof", "allow", true],
    ["Shell(git status)", "git status && rm -rf .", "allow", false],
    ["Shell(git status:*)", "PATH=/tmp git status", "allow", false],
    ["Shell(git status:*)", "git status; echo $(curl evil)", "allow", false],
    ["Shell(rm *)", "FOO=bar rm -rf x", "deny", true],
    ["Shell(rm *)", "timeout 30 rm x", "deny", true],
    ["Shell(rm *)", "nice -n 5 rm x", "deny", true],
    ["Shell(rm *)", "env A=1 rm x", "deny", true],
    ["Shell(rm *)", "sudo rm x", "deny", true],
    ["Shell(rm *)", "nohup rm x", "deny", true],
    ["Shell(rm *)", "echo hi && rm x", "deny", true],
    ["Shell(rm *)", "ls | xargs rm", "deny", true],
    ["Shell(rm *)", 'bash -c "rm -rf x"', "deny", true],
    ["Shell(rm *)", "sh -c 'cd /; rm x'", "deny", true],
    ["Shell(rm *)", "echo $(rm x)", "deny", true],
    ["Shell(rm *)", "echo `rm x`", "deny", true],
    ["Shell(rm *)", "/bin/rm x", "deny", true],
    ["Shell(rm *)", 'echo "unterminated && rm x', "deny", true],
    ["Shell(curl *)", "find . -exec curl x {} ;", "deny", true],
    ["Shell(rm *)", "rmdir x", "deny", false],
  ];
  it.each(cases)("%s %s: %s → %s", (rule, command, action, want) => expect(hits(rule, sh(command), action)).toBe(want));

  it("allow needs every part of a compound command, each by some rule", () => {
    const r = rules({ allow: ["Shell(npm test:*)", "Shell(npm run lint)"] });
    expect(decide(sh("npm test && npm run lint"), ctx({ rules: r })).decision).toBe("allow");
    expect(decide(sh("npm test && npm publish"), ctx({ rules: r })).decision).toBe("ask");
  });

  it("an unparsable command is never allowed, even by a matching-looking rule", () => {
    expect(decide(sh('npm test "unterminated'), ctx({ rules: rules({ allow: ["Shell(npm test:*)"] }) })).decision).toBe(
      "ask",
    );
    expect(
      decide(sh("if true; then npm test; fi"), ctx({ rules: rules({ allow: ["Shell(npm test:*)", "Shell(true)"] }) }))
        .decision,
    ).toBe("ask");
  });

  it("Claude Code: Bash(npm run build) is exact; trailing ' *' is a word boundary", () => {
    expect(hits("Bash(npm run build)", sh("npm run build"), "allow", "claude-code")).toBe(true);
    expect(hits("Bash(npm run build)", sh("npm run build --prod"), "allow", "claude-code")).toBe(false);
    expect(hits("Bash(ls *)", sh("ls -la"), "allow", "claude-code")).toBe(true);
    expect(hits("Bash(ls *)", sh("lsof"), "allow", "claude-code")).toBe(false);
    expect(hits("Bash(* --version)", sh("node --version"), "allow", "claude-code")).toBe(true);
  });
});

describe("seed 002 'Шаблоны путей к файлам' examples", () => {
  const cases: [string, string, boolean, object?][] = [
    ["Read(//etc/**)", "/etc/passwd", true],
    ["Read(//etc/**)", "/opt/etc/x", false],
    ["Edit(~/.config/**)", `${HOME}/.config/app/x.json`, true],
    ["Edit(/src/**)", `${WS}/src/a.ts`, true],
    ["Edit(/src/**)", `${WS}/lib/src/a.ts`, false],
    ["Read(.env)", `${WS}/.env`, true],
    ["Read(.env)", `${WS}/a/b/.env`, true],
    ["Read(**/.env)", `${WS}/a/b/.env`, true],
    ["Read(*.pem)", `${WS}/certs/a.pem`, true],
    ["Read(src/*)", `${WS}/src/a/b.ts`, true], // deny: a matched directory covers its contents
    ["Read(//repo/secrets)", "/repo/secrets/", true],
    ["Read(//repo/secrets)", "/repo/secrets", true],
  ];
  it.each(cases)("deny %s vs %s → %s", (rule, path, want) => {
    const call = rule.startsWith("Edit") ? edit(path) : { tool: "read_directory", input: { path } };
    expect(hits(rule, call)).toBe(want);
  });

  it("deny follows a symlink target; allow needs both link and target", () => {
    const resolveSymlink = (p: string) => (p === `${WS}/link` ? `${WS}/secrets/key` : null);
    expect(hits("Read(secrets/**)", read("link"), "deny", "commandcode", { resolveSymlink })).toBe(true);
    const r = rules({ allow: ["Edit(/docs/**)"] });
    const resolve2 = (p: string) => (p === `${WS}/docs/link` ? `${WS}/src/real.ts` : null);
    expect(decide(edit("docs/link"), ctx({ rules: r, resolveSymlink: resolve2 })).decision).toBe("ask");
    expect(decide(edit("docs/real.md"), ctx({ rules: r, resolveSymlink: resolve2 })).decision).toBe("allow");
  });

  it("deny/ask fold case on case-insensitive file systems; allow never does", () => {
    expect(hits("Read(.env)", read(".ENV"), "deny", "commandcode", { caseInsensitiveFs: true })).toBe(true);
    expect(hits("Read(.env)", read(".ENV"), "deny")).toBe(false);
    const r = rules({ allow: ["Edit(/src/**)"] });
    expect(decide(edit("SRC/a.ts"), ctx({ rules: r, caseInsensitiveFs: true })).decision).toBe("ask");
  });

  it("Claude Code: /x is relative to the settings source; ./x to cwd; Read deny also blocks Edit", () => {
    const user = rules(
      { deny: ["Read(/secret.txt)"] },
      "claude-code",
      src("global", `${HOME}/.claude/settings.json`, `${HOME}/.claude`),
    );
    expect(decide(read(`${HOME}/.claude/secret.txt`), ctx({ agent: "claude-code", rules: user })).decision).toBe(
      "deny",
    );
    expect(decide(read(`${WS}/secret.txt`), ctx({ agent: "claude-code", rules: user })).decision).toBe("allow");
    const proj = rules({ deny: ["Read(./.env)"] }, "claude-code", src("workspace", `${WS}/.claude/settings.json`, WS));
    expect(decide(read(`${WS}/pkg/.env`), ctx({ agent: "claude-code", cwd: `${WS}/pkg`, rules: proj })).decision).toBe(
      "deny",
    );
    expect(
      decide(
        { tool: "Edit", input: { file_path: `${WS}/pkg/.env` } },
        ctx({ agent: "claude-code", cwd: `${WS}/pkg`, rules: proj }),
      ).decision,
    ).toBe("deny");
    // allow Edit(src/**) is anchored at cwd; deny Edit(src/**) matches src at any depth
    const allow = rules({ allow: ["Edit(src/**)"] }, "claude-code", src("workspace", "x", WS));
    expect(
      decide({ tool: "Edit", input: { file_path: `${WS}/src/a.ts` } }, ctx({ agent: "claude-code", rules: allow }))
        .decision,
    ).toBe("allow");
    expect(
      decide({ tool: "Edit", input: { file_path: `${WS}/lib/src/a.ts` } }, ctx({ agent: "claude-code", rules: allow }))
        .decision,
    ).toBe("ask");
  });
});

describe("MCP and subagents", () => {
  const mcp = (tool: string) => ({ tool, input: {} });
  it.each([
    ["mcp__github", "mcp__github__anything", true],
    ["mcp__github__*", "mcp__github__anything", true],
    ["mcp__github", "mcp__githubx__a", false],
    ["mcp__github__get_*", "mcp__github__get_issue", true],
    ["mcp__*", "mcp__a__b", true],
  ])("deny %s vs %s → %s", (rule, tool, want) => expect(hits(rule, mcp(tool))).toBe(want));

  it("allow of a server / one tool; unknown MCP asks otherwise", () => {
    const r = rules({ allow: ["mcp__github__get_issue", "mcp__linear__*"] });
    expect(decide(mcp("mcp__github__get_issue"), ctx({ rules: r })).decision).toBe("allow");
    expect(decide(mcp("mcp__linear__create"), ctx({ rules: r })).decision).toBe("allow");
    expect(decide(mcp("mcp__github__delete_repo"), ctx({ rules: r })).decision).toBe("ask");
  });

  it("agent is always allowed; Claude Code Task too", () => {
    expect(decide({ tool: "Task", input: {} }, ctx({ agent: "claude-code" })).decision).toBe("allow");
    expect(decide({ tool: "agent", input: {} }, ctx({ mode: "dont-ask" })).decision).toBe("allow");
  });
});

describe("web and native tools", () => {
  const fetch = (url: string) => ({ tool: "web_fetch", input: { url } });
  it.each([
    ["WebFetch(domain:*.example.com)", "https://a.example.com/x", true],
    ["WebFetch(domain:*.example.com)", "https://a.b.example.com/x", true],
    ["WebFetch(domain:*.example.com)", "https://example.com/x", false],
    ["WebFetch(domain:*.example.com)", "https://badexample.com/x", false],
    ["WebFetch(domain:example.com)", "https://EXAMPLE.com/x", true],
    ["WebFetch(domain:example.com)", "not a url", false],
  ])("deny %s vs %s → %s", (rule, url, want) => expect(hits(rule, fetch(url))).toBe(want));

  it("native tools without side effects are free; rules still apply", () => {
    expect(decide({ tool: "TodoWrite", input: {} }, ctx({ agent: "claude-code", mode: "plan" })).decision).toBe(
      "allow",
    );
    expect(decide({ tool: "todo_write", input: {} }, ctx({ rules: rules({ deny: ["todo_write"] }) })).decision).toBe(
      "deny",
    );
  });
});

describe("Claude Code tools", () => {
  const cc = (over = {}) => ctx({ agent: "claude-code", ...over });
  it.each([
    [{ tool: "Write", input: { file_path: `${WS}/a.ts` } }, "accept-edits", "allow"],
    [{ tool: "MultiEdit", input: { file_path: `${WS}/a.ts`, edits: [] } }, "acceptEdits", "allow"],
    [{ tool: "NotebookEdit", input: { notebook_path: `${WS}/n.ipynb` } }, "default", "ask"],
    [{ tool: "Glob", input: { pattern: "**/*.ts" } }, "default", "allow"],
    [{ tool: "Grep", input: { pattern: "x", path: "/etc" } }, "default", "ask"],
    [{ tool: "Bash", input: { command: "git status" } }, "plan", "allow"],
    [{ tool: "Bash", input: { command: "npm i" } }, "bypassPermissions", "allow"],
    // Claude Code's tools reference: WebSearch requires permission, so dontAsk denies it (was "allow": issue 10 #7).
    [{ tool: "WebSearch", input: { query: "x" } }, "dontAsk", "deny"],
    [{ tool: "Task", input: { subagent_type: "Explore" } }, "dontAsk", "allow"],
    [{ tool: "Edit", input: {} }, "default", "deny"],
  ] as [ToolCall, string, Action][])("%j in %s → %s", (call, mode, want) =>
    expect(decide(call, cc({ mode })).decision).toBe(want),
  );
});

describe("Claude Code subagent rules", () => {
  it("Agent(Explore) deny and Agent(model:opus) ask apply to Task calls", () => {
    const r = rules({ deny: ["Agent(Explore)"], ask: ["Agent(model:opus)"] }, "claude-code");
    const c = ctx({ agent: "claude-code", rules: r });
    expect(decide({ tool: "Task", input: { subagent_type: "Explore" } }, c).decision).toBe("deny");
    expect(decide({ tool: "Task", input: { subagent_type: "Plan", model: "opus" } }, c).decision).toBe("ask");
    expect(decide({ tool: "Task", input: { subagent_type: "Plan" } }, c)).toMatchObject({
      decision: "allow",
      step: "always-allowed",
    });
  });
});

describe("more rule forms", () => {
  it("an allow rule naming an outside path pre-approves the directory", () => {
    const r = rules({ allow: ["Read(//etc/**)"] });
    expect(decide(read("/etc/hosts"), ctx({ rules: r })).decision).toBe("allow");
    expect(decide(read("/etc/hosts"), ctx({ rules: r, mode: "dont-ask" })).decision).toBe("allow");
    expect(decide(read("/opt/x"), ctx({ rules: r, mode: "dont-ask" })).decision).toBe("deny");
  });

  it("MCP parameter rules (deny/ask only)", () => {
    expect(
      hits("mcp__github__create_pr(repo:secret-*)", { tool: "mcp__github__create_pr", input: { repo: "secret-x" } }),
    ).toBe(true);
    expect(
      hits("mcp__github__create_pr(repo:secret-*)", { tool: "mcp__github__create_pr", input: { repo: "public" } }),
    ).toBe(false);
    expect(hits("mcp__github__create_pr(repo:secret-*)", { tool: "mcp__github__create_pr", input: {} })).toBe(false);
  });

  it("Claude Code never consults Write(path) and friends", () => {
    const r = rules({ deny: ["Write(.env)"] }, "claude-code");
    expect(
      decide(
        { tool: "Write", input: { file_path: `${WS}/src/.env` } },
        ctx({ agent: "claude-code", rules: r, mode: "bypassPermissions" }),
      ).decision,
    ).toBe("allow");
  });
});

describe("seed 002 recipes", () => {
  const recipes = rules({
    allow: ["Shell(git status:*)", "Shell(git log:*)", "Shell(git diff:*)", "mcp__github__get_issue", "mcp__linear__*"],
    ask: ["Shell(git push:*)", "Shell(git pull:*)", "Read(.env*)", "Edit(package.json)", "Edit(pnpm-lock.yaml)"],
    deny: [
      "Shell(git push --force*)",
      "Shell(git reset --hard*)",
      "Shell(git clean -*)",
      "Read(secrets/**)",
      "Read(~/.ssh/**)",
      "Edit(.git/**)",
      "Edit(.ssh/**)",
    ],
  });
  it.each([
    [sh("git push --force origin main"), "deny"],
    [sh("git push origin main"), "ask"],
    [sh("git reset --hard HEAD~1"), "deny"],
    [sh("git clean -fdx"), "deny"],
    [sh("git pull"), "ask"],
    [sh("git log -p"), "allow"],
    [read(".env.local"), "ask"],
    [read("secrets/db.txt"), "deny"],
    [read(`${HOME}/.ssh/id_rsa`), "deny"],
    [edit("package.json"), "ask"],
    [edit("pnpm-lock.yaml"), "ask"],
    [edit(".git/HEAD"), "deny"],
    [{ tool: "mcp__linear__create_issue", input: {} }, "allow"],
    [{ tool: "mcp__github__get_issue", input: {} }, "allow"],
    [sh("timeout 10 git push --force"), "deny"],
    [sh("git status && git push --force"), "deny"],
  ] as [ToolCall, Action][])("%j → %s", (call, want) =>
    expect(decide(call, ctx({ rules: recipes })).decision).toBe(want),
  );

  it("the trace lists every consulted step in ladder order", () => {
    const d = decide(sh("make"), ctx({ rules: recipes }));
    expect(d.trace.map((e) => e.step)).toEqual([
      "deny-rule",
      "protected-path",
      "ask-rule",
      "external-dir",
      "plan-mode",
      "malformed-write",
      "read-only",
      "root-home-delete",
      "yolo",
      "sensitive-write",
      "allow-rule",
      "accept-edits",
      "fallback",
    ]);
    expect(d.trace.at(-1)).toMatchObject({ outcome: "decided" });
  });
});
