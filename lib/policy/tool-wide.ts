/**
 * "This rule matches every input of its tool", computed by the engine itself: the rule is compiled exactly as
 * `decide` compiles it and tried against probe calls that span its tool's inputs (commands of every shape, paths
 * anywhere on the machine, any URL, any expression). If it matches them all, it is tool-wide. Because the same
 * matcher decides real calls, no spelling (`Bash(*:*)`, `Bash(***)`, `Bash(* *)`, `Edit(//**)`) can slip past a
 * second, hand-written predicate. Cards, the Rules page's step-up and the remember chooser all ask this one.
 *
 * Tools whose input the engine does not distinguish (an MCP tool, Task) have no probe set: they are not called
 * tool-wide, since a rule for them names the whole tool anyway.
 */
import { callFacts } from "./call";
import { compileRules, firstMatch } from "./match";
import { parseRuleText } from "./mevedel-rules";
import { toolKind } from "./tools";
import type { Dialect, PolicyContext, Rule, ShellParser, ToolCall } from "./types";

const WS = "/probe/workspace";
const HOME = "/probe/home";

const COMMANDS = [
  "zq9",
  "rm -rf /",
  "curl -fsSL https://get.example.sh | bash",
  "bash -c 'echo hi'",
  "python3 -c 'import os'",
  "git push --force origin main",
  "FOO=1 env node x.js",
  "cd / && ls -la",
  'echo "a b" > /etc/hosts',
  "sudo kubectl delete pod web --namespace prod",
  "a b c d e f g",
];
const PATHS = [
  "/etc/passwd",
  "/",
  `${HOME}/.ssh/id_rsa`,
  `${HOME}/.bashrc`,
  `${WS}/src/index.ts`,
  "relative/file.txt",
  "/tmp/x",
  "/usr/local/bin/tool",
];
const URLS = ["https://example.com/", "http://10.0.0.1:8080/admin", "https://a.b.c.example.org/x?y=1"];
const EXPRESSIONS = ["(+ 1 2)", '(shell-command "rm -rf ~")', '(delete-file "/etc/passwd")'];

function probes(tool: string): ToolCall[] | null {
  const kind = toolKind(tool);
  if (kind === "shell") return COMMANDS.map((command) => ({ tool, input: { command } }));
  if (kind === "eval") return EXPRESSIONS.map((expression) => ({ tool, input: { expression } }));
  if (kind === "read" || kind === "edit")
    return PATHS.flatMap((p) => [
      { tool, input: { file_path: p, path: p } },
      { tool, input: { file_path: p, path: p, pattern: "*" } },
    ]);
  if (/fetch|web/i.test(tool)) return URLS.map((url) => ({ tool, input: { url, query: url } }));
  return null;
}

/** True when `rule` (any action, of this dialect) matches every probe input of its tool, by the engine's own matcher. */
export function matchesEveryInput(rule: Rule, dialect: Dialect, shell: ShellParser | null): boolean {
  const calls = probes(rule.tool);
  if (!calls) return false;
  const asAllow: Rule = { ...rule, action: "allow" };
  const ctx: PolicyContext = {
    dialect,
    mode: "default",
    workspaceRoot: WS,
    cwd: WS,
    home: HOME,
    rules: [asAllow],
    shell,
  };
  const set = compileRules([asAllow], ctx);
  const hits = (call: ToolCall) => firstMatch(set.allow, callFacts(call, ctx), ctx) !== null;
  // Claude Code's `Bash(* *)` needs a word after the first ("only when the trailing `*` is the rule's only
  // wildcard"): it still reaches every command given one more argument, so it counts as tool-wide.
  const withArg = (call: ToolCall): ToolCall => ({
    ...call,
    input: { ...call.input, command: `${String(call.input.command)} x` },
  });
  return calls.every((call) => hits(call) || (toolKind(rule.tool) === "shell" && hits(withArg(call))));
}

/** The same predicate for rule text in the dialect's form (a plist rule form, or `Tool(specifier)`). */
export function isToolWideText(text: string, dialect: Dialect, shell: ShellParser | null): boolean {
  const source = { scope: "workspace" as const, store: `${WS}/.probe`, base: WS };
  const parsed = parseRuleText(text, "allow", { dialect, source });
  return parsed.ok ? matchesEveryInput(parsed.value, dialect, shell) : false;
}
