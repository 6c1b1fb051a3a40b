import { dialectOf } from "@/lib/agents/dialects";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { decide, type Action, type Agent, type Mode, type PolicyContext, type Rule, type ToolCall } from "@/lib/policy";
import { loadShellParser } from "@/lib/agents/shared/shell-parser";
import type { ShellParser } from "@/lib/policy";
import { lintWorkspace, removableIds } from "./lint";
import { HOME, item, WS, type Where } from "@/test/support/hygiene";
import type { LintItem } from "./types";

let shell: ShellParser;
beforeAll(async () => {
  shell = await loadShellParser();
});

const MODES: Mode[] = ["default", "accept-edits", "plan", "yolo", "dont-ask"];
const SEGMENTS = [
  "git status",
  "git status --short",
  "git push origin main",
  "git push --force",
  "git log -1",
  "git commit -m x",
  "npm test",
  "npm run build",
  "npm run build:prod",
  "npm install x",
  "ls -la",
  "cat .env",
  "echo hi > .env",
  "rm -rf dist",
  "rm x",
  "make all",
  "make",
  "echo hi",
  "curl https://x",
  "python3 x.py",
  "mkdir a",
  "cp a .git/config",
];
const OPS = [" && ", "; ", " | "];
const PATHS = [
  "src/a.ts",
  "src/lib/b.ts",
  "src/generated/c.ts",
  ".env",
  "config/.env",
  "config/app.json",
  ".git/config",
  "/etc/hosts",
  "/etc/ssl/x.pem",
  "/tmp/x",
  `${HOME}/.bashrc`,
  `${HOME}/notes/a.md`,
  "docs/readme.md",
];
const SHELL = [
  "git:*",
  "git status:*",
  "git status",
  "git push:*",
  "git push --force*",
  "git log *",
  "git *",
  "npm run *",
  "npm run build",
  "npm run build:*",
  "npm test",
  "npm:*",
  "make:*",
  "make all",
  "rm *",
  "rm -rf dist",
  "ls*",
  "echo *",
  "echo hi > .env",
  "cp a .git/config",
  "mkdir a",
];
const JSON_RULES = [
  ...SHELL.map((s) => `Bash(${s})`),
  ...SHELL.slice(0, 6).map((s) => `Shell(${s})`),
  "Edit",
  "Edit(src/**)",
  "Edit(src/a.ts)",
  "Edit(src/generated/**)",
  "Write(src/**)",
  "Write(src/generated/**)",
  "Edit(/src/**)",
  "Edit(/src/lib/**)",
  "Edit(config/**)",
  "Edit(config/.env)",
  "Edit(.env)",
  "Edit(//etc/**)",
  "Edit(//etc/hosts)",
  "Edit(~/notes/**)",
  "Edit(~/notes/a.md)",
  "Read(//etc/**)",
  "Read",
  "mcp__github__*",
  "mcp__github__get_*",
  "mcp__github__get_issue",
  "mcp__github",
  "WebFetch(domain:*.x.com)",
  "WebFetch(domain:api.x.com)",
];
const plist = (tool: string, key: string | null, value: string, action: Action) =>
  `("${tool}"${key ? ` :${key} "${value}"` : ""} :action ${action})`;
const MEVEDEL_SPECS: [string, string | null, string][] = [
  ...["git status", "git *", "git log *", "npm run *", "npm run build", "rm *", "echo *"].map(
    (s): [string, string, string] => ["Bash", "pattern", s],
  ),
  ["Bash", "pattern", "git status*"],
  ["Bash", null, ""],
  ["ApplyPatch", null, ""],
  ["ApplyPatch", "path", "/w/src/**"],
  ["ApplyPatch", "path", "/w/src/a.ts"],
  ["ApplyPatch", "path", "/etc/**"],
  ["ApplyPatch", "path", "/etc/hosts"],
  ["Read", "path", "/etc/**"],
];
const GRANTS = [
  '(:path "/etc" :access write :recursive t)',
  '(:path "/etc/hosts" :access write)',
  '(:path "/etc" :access read :recursive t)',
  '(:path "/w/.git" :access write :recursive t)',
  '(:path "/w/.git/config" :access write)',
];

const WHERE: Partial<Record<Agent, Where[]>> = {
  "claude-code": ["workspace", "local", "global", "session"],
  commandcode: ["workspace", "local", "global", "session"],
  mevedel: ["workspace", "global", "session"],
};
const STORE_ORDER: Where[] = ["workspace", "local", "global"];

const action = fc.constantFrom<Action>("allow", "allow", "allow", "ask", "deny");
// Each rule set draws from a small random slice of the vocabulary, so overlapping rules meet often.
function ruleSet(agent: Agent) {
  const where = fc.constantFrom(...WHERE[agent]!);
  const texts: fc.Arbitrary<(a: Action) => string> =
    agent === "mevedel"
      ? fc.oneof(
          fc.constantFrom(...MEVEDEL_SPECS).map(
            ([t, k, v]) =>
              (a: Action) =>
                plist(t, k, v, a),
          ),
          fc.constantFrom(...GRANTS).map((g) => () => g),
        )
      : fc.constantFrom(...JSON_RULES).map((t) => () => t);
  return fc
    .array(texts, { minLength: 2, maxLength: 6 })
    .chain((vocab) => fc.array(fc.tuple(where, action, fc.constantFrom(...vocab)), { minLength: 2, maxLength: 12 }))
    .map((rows) =>
      rows
        .map(([w, a, t], i) => {
          const text = t(a);
          const grant = text.startsWith("(:path");
          return item(agent, grant && w === "session" ? "workspace" : w, grant ? "allow" : a, text, `r${i}`);
        })
        .filter((it) => it.rule || it.grant),
    );
}

const command = fc
  .array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 3 })
  .chain((segs) =>
    fc
      .array(fc.constantFrom(...OPS), { minLength: segs.length - 1, maxLength: segs.length - 1 })
      .map((ops) => segs.map((s, i) => (i === 0 ? s : ops[i - 1] + s)).join("")),
  );
function calls(agent: Agent): fc.Arbitrary<ToolCall> {
  const shellTool = agent === "commandcode" ? "shell_command" : "Bash";
  const files =
    agent === "mevedel"
      ? ["ApplyPatch", "Read"]
      : agent === "claude-code"
        ? ["Edit", "Write", "Read", "MultiEdit"]
        : ["edit_file", "write_file", "read_file"];
  return fc.oneof(
    { weight: 3, arbitrary: command.map((c) => ({ tool: shellTool, input: { command: c } })) },
    {
      weight: 3,
      arbitrary: fc.tuple(fc.constantFrom(...files), fc.constantFrom(...PATHS)).map(([tool, p]) => ({
        tool,
        input: { file_path: p, path: p, old_string: "a", new_string: "b", content: "x" },
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom("mcp__github__get_issue", "mcp__github__create_pr", "mcp__gitlab__x")
        .map((tool) => ({ tool, input: {} })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom("https://api.x.com/a", "https://x.com/b", "https://y.org")
        .map((url) => ({ tool: agent === "commandcode" ? "web_fetch" : "WebFetch", input: { url } })),
    },
  );
}

function context(agent: Agent, items: LintItem[], mode: Mode): PolicyContext {
  const order = (it: LintItem) =>
    STORE_ORDER.indexOf(it.entry.store.path.endsWith(".local.json") ? "local" : (it.entry.scope as Where));
  const files = items.filter((it) => it.rule && it.entry.scope !== "session").sort((a, b) => order(a) - order(b));
  return {
    dialect: dialectOf(agent),
    mode,
    workspaceRoot: WS,
    home: HOME,
    tmpDirs: ["/tmp"],
    shell,
    rules: files.map((it) => it.rule as Rule),
    sessionRules: items.filter((it) => it.rule && it.entry.scope === "session").map((it) => it.rule as Rule),
    grants: items
      .filter((it) => it.grant)
      .map((it) => ({ ...it.grant!, source: { scope: it.entry.scope, store: it.entry.store.path } })),
  };
}

const RUNS = Number(process.env.HYGIENE_RUNS ?? 400);
const CALLS_PER_SET = 25;

describe("removing what the lint calls covered or duplicate never changes a decision", () => {
  it.each(["claude-code", "commandcode", "mevedel"] as Agent[])(
    "%s: 10,000 generated calls",
    (agent) => {
      let checked = 0;
      let removedTotal = 0;
      fc.assert(
        fc.property(
          ruleSet(agent),
          fc.array(fc.tuple(calls(agent), fc.constantFrom(...MODES)), {
            minLength: CALLS_PER_SET,
            maxLength: CALLS_PER_SET,
          }),
          (items, cs) => {
            const { findings } = lintWorkspace({ workspace: WS, home: HOME, items });
            const gone = new Set(removableIds(findings));
            removedTotal += gone.size;
            const kept = items.filter((it) => !gone.has(it.entry.id));
            // Built once per rule set: the engine caches its compiled index per rules array.
            const base = context(agent, items, "default");
            const reduced = context(agent, kept, "default");
            for (const [call, mode] of cs) {
              const before = decide(call, { ...base, mode });
              const after = decide(call, { ...reduced, mode });
              checked++;
              if (before.decision !== after.decision)
                expect(
                  { decision: after.decision, step: after.step },
                  `${JSON.stringify(call)} in ${mode}; removed ${[...gone].map((id) => items.find((i) => i.entry.id === id)!.entry.rule).join(", ")} from ${items.map((i) => `${i.entry.scope}${i.entry.store.path.endsWith(".local.json") ? "(local)" : ""} ${i.entry.action} ${i.entry.rule}`).join("; ")}`,
                ).toEqual({ decision: before.decision, step: before.step });
            }
          },
        ),
        { numRuns: RUNS },
      );
      expect(checked).toBeGreaterThanOrEqual(RUNS * CALLS_PER_SET);
      expect(removedTotal).toBeGreaterThan(0);
    },
    120_000,
  );
});
