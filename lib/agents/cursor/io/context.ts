/**
 * Building a decision context from disk (I/O; home, environment and parser injected): the stores Cursor reads for a
 * folder, and the MCP servers of mcp.json (https://cursor.com/docs/mcp: project `.cursor/mcp.json`, global
 * `~/.cursor/mcp.json`, `mcpServers.<name>` with `url` or `command`/`args`).
 */
import path from "node:path";
import { parse } from "jsonc-parser";
import { z } from "zod";
import type { ShellParser } from "@/lib/policy";
import { readStoreBytes } from "@/lib/stores/read-store";
import type { CursorContext, CursorMode } from "../decide";
import type { McpServerEntry } from "../hook";
import type { CursorEnv } from "../paths";
import { loadCursorStores, type CursorStore } from "./stores";

export interface ContextOptions extends CursorEnv {
  workspace: string;
  cwd?: string;
  mode?: CursorMode;
  shell: ShellParser | null;
  /** The cockpit's data folder(s) (lib/stores/policy-context `cockpitProtectedPaths`). */
  protectedPaths?: string[];
  resolveSymlink?: (absPath: string) => string | null;
}

/** The context `decideCursor` needs, with the stores as listed (so callers can show them). */
export async function loadCursorContext(o: ContextOptions): Promise<CursorContext & { stores: CursorStore[] }> {
  const stores = await loadCursorStores(o);
  return {
    workspaceRoot: path.resolve(o.workspace),
    cwd: path.resolve(o.cwd ?? o.workspace),
    home: o.home,
    mode: o.mode,
    stores,
    shell: o.shell,
    protectedPaths: o.protectedPaths,
    resolveSymlink: o.resolveSymlink,
  };
}

const McpFile = z.looseObject({
  mcpServers: z
    .record(
      z.string(),
      z.looseObject({
        url: z.string().optional(),
        command: z.string().optional(),
        args: z.array(z.string()).optional(),
      }),
    )
    .optional(),
});

/** Servers of the project's and the user's mcp.json (project names win); unreadable files contribute nothing. */
export async function loadMcpServers(workspace: string, home: string): Promise<Record<string, McpServerEntry>> {
  const out: Record<string, McpServerEntry> = {};
  for (const file of [path.join(home, ".cursor", "mcp.json"), path.join(workspace, ".cursor", "mcp.json")]) {
    const bytes = await readStoreBytes(file);
    if (!bytes.exists || bytes.decodeError) continue;
    const parsed = McpFile.safeParse(parse(bytes.text, [], { allowTrailingComma: true }));
    if (!parsed.success) continue;
    for (const [name, s] of Object.entries(parsed.data.mcpServers ?? {}))
      out[name] = { url: s.url, command: s.command, args: s.args };
  }
  return out;
}
