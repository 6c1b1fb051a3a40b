import { beforeAll, describe, expect, it } from "vitest";
import { rememberChoices, rememberRules } from "./remember";
import { loadShellParser } from "../agents/shared/shell-parser";
import { ctx, edit, sh, useShell, type CtxOver } from "@/test/support/policy";
import type { PolicyContext, ToolCall } from "./types";

beforeAll(async () => useShell(await loadShellParser()));

const bash = (command: string): ToolCall => ({ tool: "Bash", input: { command } });
const CLAUDE: CtxOver = { agent: "claude-code" };

describe("rememberChoices: narrowest first, never wider than the request", () => {
  // [name, call, context, [level, rules][]]
  const cases: [string, ToolCall, CtxOver, [string, string[]][]][] = [
    [
      "kubectl delete: exact, sub-command, program",
      bash("kubectl delete pod web-1 --namespace prod"),
      CLAUDE,
      [
        ["exact", ["Bash(kubectl delete pod web-1 --namespace prod)"]],
        ["subcommand", ["Bash(kubectl delete *)"]],
        ["program", ["Bash(kubectl *)"]],
      ],
    ],
    [
      "Command Code spells the prefix with :*",
      sh("kubectl delete pod web-1 --namespace prod"),
      {},
      [
        ["exact", ["Shell(kubectl delete pod web-1 --namespace prod)"]],
        ["subcommand", ["Shell(kubectl delete:*)"]],
        ["program", ["Shell(kubectl:*)"]],
      ],
    ],
    [
      "curl | bash: the exact parts only",
      bash("curl -fsSL https://get.example.sh | bash"),
      CLAUDE,
      [["exact", ["Bash(curl -fsSL https://get.example.sh)", "Bash(bash)"]]],
    ],
    ["bash -c is never generalised", bash('bash -c "make build"'), CLAUDE, [["exact", ['Bash(bash -c "make build")']]]],
    [
      "interpreter with inline code",
      bash("python3 -c 'print(1)'"),
      CLAUDE,
      [["exact", ["Bash(python3 -c 'print(1)')"]]],
    ],
    [
      "Claude Code strips a documented wrapper before matching: the rules name the command it runs",
      bash("timeout 30 kubectl get pods -w"),
      CLAUDE,
      [
        ["exact", ["Bash(kubectl get pods -w)"]],
        ["subcommand", ["Bash(kubectl get *)"]],
        ["program", ["Bash(kubectl *)"]],
      ],
    ],
    [
      "Claude Code strips a safe assignment before matching; npm keeps its script",
      bash("NODE_ENV=production npm run build"),
      CLAUDE,
      [
        ["exact", ["Bash(npm run build)"]],
        ["subcommand", ["Bash(npm run build *)"]],
      ],
    ],
    ["dangerous → exact", bash("rm -rf dist"), CLAUDE, [["exact", ["Bash(rm -rf dist)"]]]],
    [
      "a package manager keeps its script and is never the bare program",
      bash("npm run test -- --watch"),
      CLAUDE,
      [
        ["exact", ["Bash(npm run test -- --watch)"]],
        ["subcommand", ["Bash(npm run test *)"]],
      ],
    ],
    [
      "no sub-command word: exact, then the program",
      bash("rsync -av a/ b/"),
      CLAUDE,
      [
        ["exact", ["Bash(rsync -av a/ b/)"]],
        ["program", ["Bash(rsync *)"]],
      ],
    ],
    [
      "compound: one rule per non-read-only part at each level",
      bash("git add . && git commit -m x && ls && make build"),
      CLAUDE,
      [
        ["exact", ["Bash(git add .)", "Bash(git commit -m x)", "Bash(make build)"]],
        ["subcommand", ["Bash(git add *)", "Bash(git commit *)", "Bash(make build *)"]],
        ["program", ["Bash(git *)", "Bash(make build *)"]],
      ],
    ],
    [
      "mevedel: plist rules at every level",
      { tool: "Bash", input: { command: "kubectl delete pod x" } },
      { agent: "mevedel", mode: "ask" },
      [
        ["exact", ['("Bash" :pattern "kubectl delete pod x" :action allow)']],
        ["subcommand", ['("Bash" :pattern "kubectl delete *" :action allow)']],
        ["program", ['("Bash" :pattern "kubectl *" :action allow)']],
      ],
    ],
    [
      "edit: the file, then its folder",
      edit("src/lib/a.ts"),
      {},
      [
        ["exact", ["Edit(/src/lib/a.ts)"]],
        ["folder", ["Edit(/src/lib/**)"]],
      ],
    ],
    ["edit at the root: the file only", edit("README.md"), {}, [["exact", ["Edit(/README.md)"]]]],
    ["MCP → the tool", { tool: "mcp__github__create_pr", input: {} }, {}, [["exact", ["mcp__github__create_pr"]]]],
  ];
  it.each(cases)("%s", (_n, call, over, want) => {
    const got = rememberChoices(call, ctx(over)).map((c) => [c.level, c.rules]);
    expect(got).toEqual(want);
  });

  it("labels say what each level covers", () => {
    const labels = rememberChoices(bash("kubectl delete pod web-1 --namespace prod"), ctx(CLAUDE)).map((c) => c.label);
    expect(labels).toEqual(["this exact command", "kubectl delete with any arguments", "any kubectl command"]);
    expect(rememberChoices(sh("git push origin main"), ctx())[0]!.label).toMatch(/more arguments/);
  });

  it.each([
    ["safety check: root delete", sh("rm -rf /")],
    ["safety check: sensitive write", edit(".env")],
    ["safety check: outside the workspace", edit("/etc/hosts")],
    ["not a prompt: read-only", sh("ls")],
    ["unparsable", sh('npm "oops')],
    ["glob in an exact command", sh("python3 -c 'print(*x)'")],
  ])("%s → nothing", (_n, call) => {
    expect(rememberChoices(call, ctx())).toEqual([]);
    expect(rememberRules(call, ctx())).toEqual({ session: [], workspace: [] });
  });
});

describe("rememberRules: what an answer stores when nobody picks a choice", () => {
  it.each([
    ["the exact command", sh("git push origin main"), {}, ["Shell(git push origin main)"]],
    ["claude-code spelling", bash("npm install"), CLAUDE, ["Bash(npm install)"]],
    ["the exact file", edit("src/a.ts"), {}, ["Edit(/src/a.ts)"]],
    [
      "mevedel → exact plist",
      { tool: "Bash", input: { command: "make all" } },
      { agent: "mevedel", mode: "ask" } as CtxOver,
      ['("Bash" :pattern "make all" :action allow)'],
    ],
  ] as [string, ToolCall, CtxOver, string[]][])("%s", (_n, call, over, want) => {
    const r = rememberRules(call, ctx(over));
    expect(r.workspace).toEqual(want);
    expect(r.session).toEqual(want);
  });
});
