// Fixtures shared by the policy tests (not imported by the engine).
import { dialectOf } from "@/lib/agents/dialects";
import { parseRule } from "@/lib/policy/rule-parse";
import type { ShellParser } from "@/lib/policy/shell/analyze";
import type { Action, Agent, Mode, PolicyContext, Rule, RuleSource } from "@/lib/policy/types";

export const MODES: Mode[] = ["default", "accept-edits", "plan", "yolo", "dont-ask"];
export const WS = "/w";
export const HOME = "/home/u";

export function src(
  scope: RuleSource["scope"] = "workspace",
  store = "/w/.commandcode/settings.json",
  base?: string,
): RuleSource {
  return { scope, store, base };
}

/** Parse rules from `{ allow: [...], ask: [...], deny: [...] }`, failing the test on a parse error. */
export function rules(
  lists: Partial<Record<Action, string[]>>,
  agent: Agent = "commandcode",
  source: RuleSource = src(),
): Rule[] {
  const out: Rule[] = [];
  for (const action of ["deny", "ask", "allow"] as Action[]) {
    for (const text of lists[action] ?? []) {
      const r = parseRule(text, action, { dialect: dialectOf(agent), source });
      if (!r.ok) throw new Error(`${text}: ${r.error}`);
      out.push(r.value);
    }
  }
  return out;
}

let shell: ShellParser | null = null;
/** Tests load the parser once (`beforeAll(async () => useShell(await loadShellParser()))`); `ctx()` passes it on. */
export function useShell(s: ShellParser): void {
  shell = s;
}

/** What a test changes in the context: any field, and the agent whose dialect decides (default Command Code's). */
export type CtxOver = Partial<PolicyContext> & { agent?: Agent };

export function ctx(over: CtxOver = {}): PolicyContext {
  const { agent = "commandcode", ...rest } = over;
  return {
    dialect: dialectOf(agent),
    mode: "default",
    workspaceRoot: WS,
    home: HOME,
    tmpDirs: ["/tmp"],
    planDir: `${HOME}/.commandcode/plans`,
    skillDirs: [`${HOME}/.commandcode/skills`],
    rules: [],
    shell,
    ...rest,
  };
}

export const sh = (command: string, extra: Record<string, unknown> = {}) => ({
  tool: "shell_command",
  input: { command, ...extra },
});
export const read = (file_path: string) => ({ tool: "read_file", input: { file_path } });
export const edit = (file_path: string) => ({
  tool: "edit_file",
  input: { file_path, old_string: "a", new_string: "b" },
});
export const write = (file_path: string) => ({ tool: "write_file", input: { file_path, content: "x" } });
