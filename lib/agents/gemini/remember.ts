import { MCP_TOOL_PREFIX, parseMcpToolName, SHELL_TOOL_NAMES, TOOLS_REQUIRING_NARROWING } from "./names";
import { buildFilePathArgsPattern, buildParamArgsPattern } from "./patterns";
import { commandRoots, stripShellWrapper, type GeminiShell } from "./shell";
import { addRule, editRule, TomlEditError, type RuleSpec } from "./toml-edit";
import { parseGeminiToml, ruleTables } from "./toml-policy";
import { ALWAYS_ALLOW_PRIORITY_FRACTION, MODES_BY_PERMISSIVENESS, type GeminiCall, type GeminiMode } from "./types";

/**
 * "Allow for all future sessions" as Gemini CLI writes it (facts from @google/gemini-cli-core 0.61.0
 * scheduler/policy.ts `updatePolicy`, tools/*.ts `getPolicyUpdateOptions`, policy/config.ts `createPolicyUpdater`):
 * a priority-950 allow rule in `~/.gemini/policies/auto-saved.toml` (user tier, so 4.95), limited to the current
 * mode and every more permissive one, narrowed the way the tool narrows it. Pure.
 */

export interface RememberedRule {
  /** The `[[rule]]` Gemini writes (toolName is the server's own tool name when mcpName is set). */
  rule: RuleSpec;
  /** What the rule covers, in words, for the card. */
  summary: string;
}

/**
 * The rule Gemini saves for this call in this mode, or an error when Gemini would save nothing (a tool that
 * must be narrowed but has no argument to narrow by).
 */
export function rememberRule(
  call: GeminiCall,
  ctx: { mode: GeminiMode; shell: GeminiShell | null; allServerTools?: boolean },
): RememberedRule | { error: string } {
  const modes = MODES_BY_PERMISSIVENESS.slice(MODES_BY_PERMISSIVENESS.indexOf(ctx.mode));
  const input = call.input ?? {};
  const base = { decision: "allow" as const, priority: ALWAYS_ALLOW_PRIORITY_FRACTION, modes };

  const server = call.server ?? parseMcpToolName(call.tool).serverName;
  if (server && call.tool.startsWith(MCP_TOOL_PREFIX)) {
    // MCP tools: Gemini stores the server's tool name with mcpName (or `*` for "all tools of this server").
    const prefix = `${MCP_TOOL_PREFIX}${server}_`;
    const toolName = ctx.allServerTools
      ? "*"
      : call.tool.startsWith(prefix)
        ? call.tool.slice(prefix.length)
        : call.tool;
    return {
      rule: { toolName, mcpName: server, ...base },
      summary: ctx.allServerTools ? `every tool of the MCP server ${server}` : `the MCP tool ${toolName} of ${server}`,
    };
  }
  if (SHELL_TOOL_NAMES.includes(call.tool)) {
    const command = typeof input.command === "string" ? input.command : "";
    if (!command) return { error: "a shell call without a command cannot be remembered" };
    const stripped = stripShellWrapper(command);
    const roots = ctx.shell ? [...new Set(commandRoots(ctx.shell, stripped))] : [];
    const redirect = ctx.shell ? ctx.shell.hasRedirection(stripped) : /[><]/.test(stripped);
    const commandPrefix = roots.length > 0 ? roots : command;
    return {
      rule: { toolName: "run_shell_command", commandPrefix, ...base, ...(redirect ? { allowRedirection: true } : {}) },
      summary: `shell commands starting with ${(Array.isArray(commandPrefix) ? commandPrefix : [commandPrefix]).map((p) => JSON.stringify(p)).join(" or ")}${redirect ? ", redirections allowed" : ""}`,
    };
  }
  const param = (name: string) => (typeof input[name] === "string" ? (input[name] as string) : undefined);
  let argsPattern: string | undefined;
  let what = "";
  switch (call.tool) {
    case "write_file":
    case "replace":
    case "read_file":
      if (param("file_path") !== undefined) {
        argsPattern = buildFilePathArgsPattern(param("file_path")!);
        what = `the file ${param("file_path")}`;
      }
      break;
    case "glob":
    case "grep_search":
    case "search_file_content":
      if (input.pattern !== undefined) {
        argsPattern = buildParamArgsPattern("pattern", input.pattern);
        what = `the pattern ${JSON.stringify(input.pattern)}`;
      }
      break;
    case "list_directory":
      if (input.dir_path !== undefined) {
        argsPattern = buildParamArgsPattern("dir_path", input.dir_path);
        what = `the directory ${String(input.dir_path)}`;
      }
      break;
    case "read_many_files":
      if (input.include !== undefined) {
        argsPattern = buildParamArgsPattern("include", input.include);
        what = "these include patterns";
      }
      break;
    default:
      break;
  }
  if (!argsPattern && TOOLS_REQUIRING_NARROWING.has(call.tool)) {
    return { error: `Gemini saves no rule for ${call.tool} without an argument to narrow it by` };
  }
  return {
    rule: { toolName: call.tool, ...(argsPattern ? { argsPattern } : {}), ...base },
    summary: argsPattern ? `${call.tool} on ${what}` : `every ${call.tool} call`,
  };
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Write the remembered rule into auto-saved.toml's text as Gemini would — an existing rule with the same
 * toolName, mcpName, commandPrefix and argsPattern gets the new modes/allowRedirection, otherwise a new table is
 * appended — but in place, keeping comments. A broken file is refused (Gemini would back it up and start over).
 */
export function applyRemembered(text: string, remembered: RememberedRule): { text: string; updated: boolean } {
  const r = remembered.rule;
  if (text.trim()) {
    let parsed;
    try {
      parsed = parseGeminiToml(text);
    } catch (e) {
      throw new TomlEditError(`auto-saved.toml is not valid TOML; fix or remove it first: ${(e as Error).message}`);
    }
    const existing = ruleTables(parsed.ast, parsed.value).find(
      (t) =>
        t.value.toolName === r.toolName &&
        t.value.mcpName === r.mcpName &&
        sameJson(t.value.commandPrefix, r.commandPrefix) &&
        t.value.argsPattern === r.argsPattern,
    );
    if (existing) {
      const changes: Parameters<typeof editRule>[2] = {};
      if (r.allowRedirection !== undefined) changes.allowRedirection = r.allowRedirection;
      if (r.modes) changes.modes = r.modes;
      return { text: editRule(text, existing.index, changes), updated: true };
    }
  }
  return { text: addRule(text, r), updated: false };
}
