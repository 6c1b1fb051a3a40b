/**
 * The calls the Cursor engine decides, validated with zod at the boundary (`cockpit decide --agent cursor --call JSON`,
 * the hook connector). Tool names as Cursor's permission types name them; a few spellings of its hook payloads too.
 */
import { z } from "zod";

export type CursorCall =
  | { tool: "Shell"; command: string; cwd?: string }
  | { tool: "Read"; path: string }
  | { tool: "Write"; path: string }
  | { tool: "WebFetch"; url: string }
  /** `server` null when unknown (Cursor's beforeMCPExecution payload names the tool, not the server). */
  | { tool: "Mcp"; server: string | null; name: string; arguments?: unknown };

const Str = z.string().min(1).max(100_000);
const RawCall = z.object({
  tool: z.string().min(1).max(200),
  input: z.record(z.string(), z.unknown()).default({}),
  server: z.string().max(300).optional(),
});

const TOOL_ALIASES: Record<string, CursorCall["tool"]> = {
  shell: "Shell",
  bash: "Shell",
  terminal: "Shell",
  run_terminal_cmd: "Shell",
  read: "Read",
  read_file: "Read",
  write: "Write",
  edit: "Write",
  write_file: "Write",
  edit_file: "Write",
  webfetch: "WebFetch",
  web_fetch: "WebFetch",
  fetch: "WebFetch",
  mcp: "Mcp",
};

export type CallParse = { ok: true; call: CursorCall } | { ok: false; error: string };

const pick = (input: Record<string, unknown>, ...keys: string[]) => {
  for (const k of keys) {
    const v = Str.safeParse(input[k]);
    if (v.success) return v.data;
  }
  return undefined;
};

/**
 * `{"tool":"Shell","input":{"command":"git status"}}`, `{"tool":"Read","input":{"path":"src/a.ts"}}`,
 * `{"tool":"WebFetch","input":{"url":"https://docs.github.com"}}`, `{"tool":"Mcp","input":{"server":"datadog","tool":"search"}}`;
 * `MCP:<tool>` (Cursor's preToolUse name) is accepted too.
 */
export function parseCursorCall(raw: unknown): CallParse {
  const r = RawCall.safeParse(raw);
  if (!r.success)
    return { ok: false, error: `call: ${r.error.issues[0]!.path.join(".") || "call"}: ${r.error.issues[0]!.message}` };
  const { input } = r.data;
  const mcpName = /^mcp:(.+)$/i.exec(r.data.tool)?.[1];
  const tool = mcpName ? "Mcp" : TOOL_ALIASES[r.data.tool.toLowerCase()];
  if (!tool)
    return {
      ok: false,
      error: `unknown tool ${r.data.tool}: Cursor's permission types are Shell, Read, Write, WebFetch, Mcp`,
    };
  const need = (what: string) => ({ ok: false as const, error: `${tool} needs input.${what}` });
  switch (tool) {
    case "Shell": {
      const command = pick(input, "command", "cmd");
      const cwd = pick(input, "cwd");
      return command ? { ok: true, call: { tool, command, ...(cwd ? { cwd } : {}) } } : need("command");
    }
    case "Read":
    case "Write": {
      const p = pick(input, "path", "file_path", "target_file");
      return p ? { ok: true, call: { tool, path: p } } : need("path");
    }
    case "WebFetch": {
      const url = pick(input, "url", "domain");
      return url ? { ok: true, call: { tool, url } } : need("url");
    }
    case "Mcp": {
      const name = mcpName ?? pick(input, "tool", "tool_name", "name");
      const server = pick(input, "server") ?? r.data.server ?? null;
      if (!name) return need("tool");
      return {
        ok: true,
        call: { tool, server, name, ...(input.arguments !== undefined ? { arguments: input.arguments } : {}) },
      };
    }
  }
}
