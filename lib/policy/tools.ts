/** One tool model for the tool names of the agents lib/policy decides for (what differs is in their dialects). */
import type { Dialect } from "./types";

/**
 * The agent's tool-name grammar: a letter, then letters, digits and `_` (Claude Code, Command Code and
 * mevedel names), or an MCP name `mcp__<server>__<tool>` whose parts may also hold `-` and `.`.
 */
export const TOOL_NAME = /^(?:[A-Za-z][A-Za-z0-9_]*|mcp__[A-Za-z0-9][A-Za-z0-9_.-]*__[A-Za-z0-9][A-Za-z0-9_.-]*)$/;

/** Families the ladder reasons about. */
export type ToolKind =
  "shell" | "read" | "edit" | "web-fetch" | "web-search" | "always" | "native" | "eval" | "mcp" | "other";

interface ToolInfo {
  /** Canonical family name (`Shell`, `Read`, …). */
  canonical: string;
  kind: ToolKind;
  /** Extra rule names (lower-case) that cover this model tool, besides its own name. */
  coveredBy: string[];
}

// Keys are lower-case model or friendly names. Friendly names cover several model tools
// (`Read` = read_file, read_directory, glob, grep), so a call answers to its own name plus these.
const TOOLS: Record<string, ToolInfo> = {
  shell_command: { canonical: "Shell", kind: "shell", coveredBy: ["shell", "bash"] },
  monitor_command: { canonical: "Shell", kind: "shell", coveredBy: ["shell", "bash"] },
  kill_shell: { canonical: "Shell", kind: "shell", coveredBy: ["shell", "bash"] },
  bash: { canonical: "Shell", kind: "shell", coveredBy: ["shell", "shell_command"] },
  shell: { canonical: "Shell", kind: "shell", coveredBy: ["bash", "shell_command"] },
  read_file: { canonical: "Read", kind: "read", coveredBy: ["read"] },
  read_multiple_files: { canonical: "Read", kind: "read", coveredBy: ["read"] },
  read_directory: { canonical: "Read", kind: "read", coveredBy: ["read"] },
  glob: { canonical: "Read", kind: "read", coveredBy: ["read"] },
  grep: { canonical: "Read", kind: "read", coveredBy: ["read"] },
  read: { canonical: "Read", kind: "read", coveredBy: ["read_file"] },
  edit_file: { canonical: "Edit", kind: "edit", coveredBy: ["edit"] },
  write_file: { canonical: "Write", kind: "edit", coveredBy: ["edit", "write"] },
  edit: { canonical: "Edit", kind: "edit", coveredBy: ["edit_file"] },
  write: { canonical: "Write", kind: "edit", coveredBy: ["edit", "write_file"] },
  multiedit: { canonical: "Edit", kind: "edit", coveredBy: ["edit"] },
  notebookedit: { canonical: "Edit", kind: "edit", coveredBy: ["edit"] },
  applypatch: { canonical: "Edit", kind: "edit", coveredBy: ["edit"] },
  web_fetch: { canonical: "WebFetch", kind: "web-fetch", coveredBy: ["webfetch"] },
  webfetch: { canonical: "WebFetch", kind: "web-fetch", coveredBy: ["web_fetch"] },
  web_search: { canonical: "WebSearch", kind: "web-search", coveredBy: ["websearch"] },
  websearch: { canonical: "WebSearch", kind: "web-search", coveredBy: ["web_search"] },
  ask_user_question: { canonical: "AskUserQuestion", kind: "always", coveredBy: ["askuserquestion"] },
  askuserquestion: { canonical: "AskUserQuestion", kind: "always", coveredBy: ["ask_user_question"] },
  agent: { canonical: "Agent", kind: "always", coveredBy: ["task"] },
  task: { canonical: "Agent", kind: "always", coveredBy: ["agent"] },
  run_command: { canonical: "RunCommand", kind: "always", coveredBy: ["runcommand"] },
  eval: { canonical: "Eval", kind: "eval", coveredBy: [] },
  ls: { canonical: "Read", kind: "read", coveredBy: ["read"] },
  // Native tools without file-system or network effects: free like reads, unless a rule says otherwise.
  todo_write: { canonical: "TodoWrite", kind: "native", coveredBy: ["todowrite"] },
  todowrite: { canonical: "TodoWrite", kind: "native", coveredBy: ["todo_write"] },
  enter_plan_mode: { canonical: "EnterPlanMode", kind: "native", coveredBy: [] },
  exit_plan_mode: { canonical: "ExitPlanMode", kind: "native", coveredBy: ["exitplanmode"] },
  exitplanmode: { canonical: "ExitPlanMode", kind: "native", coveredBy: ["exit_plan_mode"] },
  bashoutput: { canonical: "BashOutput", kind: "native", coveredBy: [] },
  // Claude Code tools reference, "Permission Required: No" (no rule is needed for them either).
  enterplanmode: { canonical: "EnterPlanMode", kind: "native", coveredBy: ["enter_plan_mode"] },
  taskoutput: { canonical: "TaskOutput", kind: "native", coveredBy: [] },
  tasklist: { canonical: "TaskList", kind: "native", coveredBy: [] },
  taskget: { canonical: "TaskGet", kind: "native", coveredBy: [] },
  taskcreate: { canonical: "TaskCreate", kind: "native", coveredBy: [] },
  taskupdate: { canonical: "TaskUpdate", kind: "native", coveredBy: [] },
  cronlist: { canonical: "CronList", kind: "native", coveredBy: [] },
  listmcpresourcestool: { canonical: "ListMcpResourcesTool", kind: "native", coveredBy: [] },
  lsp: { canonical: "LSP", kind: "native", coveredBy: [] },
};

/**
 * Does this tool need permission in the agent although it has no file-system effect (its tools reference,
 * "Permission Required: Yes": the dialect's `permissionRequired`)?
 */
export function needsPermission(dialect: Pick<Dialect, "permissionRequired">, lowerName: string): boolean {
  return dialect.permissionRequired.includes(lowerName);
}

// Claude Code's Glob/Grep answer to `Read` rules as well as their own names.
const CLAUDE_READS = new Set(["glob", "grep"]);

/** Canonical family name for any agent's tool name (`shell_command` → `Shell`, `Task` → `Agent`); unknown names are returned as given. */
export function canonicalTool(name: string): string {
  return TOOLS[name.toLowerCase()]?.canonical ?? name;
}

/** Family of a tool name, for the ladder. */
export function toolKind(name: string): ToolKind {
  const info = TOOLS[name.toLowerCase()];
  if (info) return info.kind;
  return name.toLowerCase().startsWith("mcp__") ? "mcp" : "other";
}

/** Lower-case names a call to `name` answers to: its own name, its family, aliases. */
export function callNames(name: string): string[] {
  const lower = name.toLowerCase();
  const info = TOOLS[lower];
  const names = [lower];
  if (info) names.push(info.canonical.toLowerCase(), ...info.coveredBy);
  if (CLAUDE_READS.has(lower)) names.push("read");
  return [...new Set(names)];
}

/** Canonical spelling for the tool part of a rule: friendly names and aliases are normalised, exact model names kept (lower-case). */
export function canonicalRuleTool(name: string): string {
  const lower = name.toLowerCase();
  const friendly: Record<string, string> = {
    shell: "Shell",
    bash: "Shell",
    read: "Read",
    edit: "Edit",
    write: "Write",
    webfetch: "WebFetch",
    websearch: "WebSearch",
    task: "Agent",
    agent: "Agent",
    glob: "Glob",
    grep: "Grep",
    multiedit: "MultiEdit",
    notebookedit: "NotebookEdit",
    applypatch: "ApplyPatch",
    eval: "Eval",
    askuserquestion: "AskUserQuestion",
  };
  if (friendly[lower]) return friendly[lower];
  if (lower.startsWith("mcp__")) return name; // MCP names are matched case-insensitively but shown as written
  return lower;
}

/** Fields a tool already matches through its specifier; they cannot be parameter rules. */
export const SPECIFIER_FIELDS = new Set(["command", "file_path", "path", "notebook_path", "url"]);

/** Input fields that carry a file path, in order of preference. */
export const PATH_FIELDS = ["file_path", "notebook_path", "path", "target_file", "target_directory", "directory"];
