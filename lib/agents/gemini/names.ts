/**
 * Gemini CLI tool names as its policy engine sees them (facts from @google/gemini-cli-core 0.61.0:
 * tools/definitions/base-declarations.ts, tools/tool-names.ts, tools/mcp-tool.ts). Pure data and string helpers.
 */

export const SHELL_TOOL_NAME = "run_shell_command";
/** Names the engine treats as the shell tool (`SHELL_TOOL_NAMES`, utils/shell-utils.ts). */
export const SHELL_TOOL_NAMES: readonly string[] = ["run_shell_command", "ShellTool"];
export const EDIT_TOOL_NAME = "replace";
export const WRITE_FILE_TOOL_NAME = "write_file";
export const EDIT_TOOL_NAMES: ReadonlySet<string> = new Set([EDIT_TOOL_NAME, WRITE_FILE_TOOL_NAME]);
export const AGENT_TOOL_NAME = "invoke_agent";
export const MCP_TOOL_PREFIX = "mcp_";
export const DISCOVERED_TOOL_PREFIX = "discovered_tool_";

/** Renamed tools: the old name still matches rules (`TOOL_LEGACY_ALIASES`). */
export const TOOL_LEGACY_ALIASES: Readonly<Record<string, string>> = { search_file_content: "grep_search" };

/** Every built-in tool (`ALL_BUILTIN_TOOL_NAMES`), for typo warnings and the Rules page's tool list. */
export const ALL_BUILTIN_TOOL_NAMES: readonly string[] = [
  "glob",
  "write_todos",
  "write_file",
  "google_web_search",
  "web_fetch",
  "replace",
  "run_shell_command",
  "grep_search",
  "read_many_files",
  "read_file",
  "list_directory",
  "activate_skill",
  "ask_user",
  "tracker_create_task",
  "tracker_update_task",
  "tracker_get_task",
  "tracker_list_tasks",
  "tracker_add_dependency",
  "tracker_visualize",
  "get_internal_docs",
  "enter_plan_mode",
  "exit_plan_mode",
  "update_topic",
  "complete_task",
  "invoke_agent",
  "read_mcp_resource",
  "list_mcp_resources",
];

/** Tools whose "always allow" must be narrowed by arguments (`TOOLS_REQUIRING_NARROWING`). */
export const TOOLS_REQUIRING_NARROWING: ReadonlySet<string> = new Set([
  "glob",
  "grep_search",
  "read_many_files",
  "read_file",
  "list_directory",
  "write_file",
  "replace",
  "run_shell_command",
]);

/** The name and its legacy aliases, in Gemini's order (`getToolAliases`). */
export function toolAliases(name: string): string[] {
  const aliases = new Set([name]);
  const canonical = TOOL_LEGACY_ALIASES[name] ?? name;
  aliases.add(canonical);
  for (const [legacy, current] of Object.entries(TOOL_LEGACY_ALIASES)) if (current === canonical) aliases.add(legacy);
  return [...aliases];
}

export const isMcpToolName = (name: string): boolean => name.startsWith(MCP_TOOL_PREFIX);

/** `mcp_<server>_<tool>`: the server is everything before the first `_` after the prefix (`parseMcpToolName`). */
export function parseMcpToolName(name: string): { serverName?: string; toolName?: string } {
  if (!isMcpToolName(name)) return {};
  const m = /^([^_]+)_(.+)$/.exec(name.slice(MCP_TOOL_PREFIX.length));
  return m ? { serverName: m[1], toolName: m[2] } : {};
}

/** `formatMcpToolName`: `mcp_*`, `mcp_*_<tool>`, `mcp_<server>_*` or `mcp_<server>_<tool>`. */
export function formatMcpToolName(serverName: string, toolName?: string): string {
  if (serverName === "*" && (toolName === undefined || toolName === "*")) return `${MCP_TOOL_PREFIX}*`;
  if (serverName === "*") return `${MCP_TOOL_PREFIX}*_${toolName}`;
  if (toolName === undefined || toolName === "*") return `${MCP_TOOL_PREFIX}${serverName}_*`;
  return `${MCP_TOOL_PREFIX}${serverName}_${toolName}`;
}

/** `isValidToolName(name, { allowWildcards: true })` from tools/tool-names.ts. */
export function isValidToolName(name: string): boolean {
  if (ALL_BUILTIN_TOOL_NAMES.includes(name)) return true;
  if (TOOL_LEGACY_ALIASES[name]) return true;
  if (name.startsWith(DISCOVERED_TOOL_PREFIX)) return true;
  if (name === "*") return true;
  if (isMcpToolName(name)) {
    if (name === `${MCP_TOOL_PREFIX}*`) return true;
    if (name.startsWith(`${MCP_TOOL_PREFIX}_`)) return false;
    const { serverName, toolName } = parseMcpToolName(name);
    if (!serverName || !toolName) return false;
    const slug = /^[a-z0-9_.:-]+$/i;
    if (!slug.test(serverName)) return false;
    if (toolName === "*") return true;
    if (/^_*$/.test(toolName)) return false;
    return slug.test(toolName);
  }
  return false;
}
