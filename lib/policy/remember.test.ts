import { beforeAll, describe, expect, it } from "vitest";
import { rememberRules } from "./remember";
import { loadShellParser } from "../agents/shared/shell-parser";
import { ctx, edit, sh, useShell } from "@/test/support/policy";
import type { PolicyContext, ToolCall } from "./types";

beforeAll(async () => useShell(await loadShellParser()));

describe("rememberRules", () => {
  const cases: [string, ToolCall, Partial<PolicyContext>, string[]][] = [
    ["one base → prefix rule", sh("git push origin main"), {}, ["Shell(git:*)"]],
    ["package manager keeps its sub-command", sh("npm install left-pad"), {}, ["Shell(npm install:*)"]],
    ["npm run keeps the script name", sh("npm run test -- --watch"), {}, ["Shell(npm run test:*)"]],
    ["bare build tool is exact", sh("make"), {}, ["Shell(make)"]],
    [
      "claude-code spelling",
      { tool: "Bash", input: { command: "npm install" } },
      { agent: "claude-code" },
      ["Bash(npm install *)"],
    ],
    [
      "compound: one rule per non-read-only base",
      sh("git add . && git commit -m x && ls && make build"),
      {},
      ["Shell(git:*)", "Shell(make build:*)"],
    ],
    [
      "arbitrary-code base → exact command",
      sh("python3 scripts/gen.py --fast"),
      {},
      ["Shell(python3 scripts/gen.py --fast)"],
    ],
    ["curl → exact", sh("curl https://x.dev/install"), {}, ["Shell(curl https://x.dev/install)"]],
    ["dangerous → exact", sh("rm -rf dist"), {}, ["Shell(rm -rf dist)"]],
    ["env prefix → exact", sh("NODE_ENV=production npm run build"), {}, ["Shell(NODE_ENV=production npm run build)"]],
    ["MCP → tool name", { tool: "mcp__github__create_pr", input: {} }, {}, ["mcp__github__create_pr"]],
    ["edit → Edit(/path)", edit("src/a.ts"), {}, ["Edit(/src/a.ts)"]],
    [
      "mevedel → exact plist",
      { tool: "Bash", input: { command: "make all" } },
      { agent: "mevedel", mode: "ask" },
      ['("Bash" :pattern "make all" :action allow)'],
    ],
  ];
  it.each(cases)("%s", (_n, call, over, want) => {
    const r = rememberRules(call, ctx(over));
    expect(r.workspace).toEqual(want);
    expect(r.session).toEqual(want);
  });

  it.each([
    ["safety check: root delete", sh("rm -rf /")],
    ["safety check: sensitive write", edit(".env")],
    ["safety check: outside the workspace", edit("/etc/hosts")],
    ["not a prompt: read-only", sh("ls")],
    ["unparsable", sh('npm "oops')],
    ["glob in an exact command", sh("python3 -c 'print(*x)'")],
  ])("%s → nothing", (_n, call) => expect(rememberRules(call, ctx())).toEqual({ session: [], workspace: [] }));
});
