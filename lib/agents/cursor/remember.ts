/**
 * "Always allow" for a Cursor call: the narrowest token Cursor documents that covers exactly this call, written to
 * the project's `.cursor/cli.json` `permissions.allow` (pure: this picks the token and the file; edit.ts writes).
 * Cursor's docs describe no remember of its own (its prompt approves once: "ask you to approve (y) or reject (n)",
 * https://cursor.com/docs/cli/using), so this is the cockpit's add, in the file and shape Cursor reads.
 */
import path from "node:path";
import { analyzeShell } from "@/lib/policy";
import type { CursorCall } from "./call";
import type { CursorRule } from "./config";
import { decideCursor, resolvePath, type CursorContext, type CursorStoreView } from "./decide";
import { hostOf, relativeToWorkspace } from "./match";
import { PROJECT_CONFIG } from "./paths";
import { parseToken } from "./tokens";

export type Remember =
  | { ok: true; token: string; file: string; scope: "workspace"; why: string; warnings: string[] }
  | { ok: false; reason: string };

const refuse = (reason: string): Remember => ({ ok: false, reason });
const WILD = /[*?]/;

/** The token that allows exactly this call, or why none can. */
export function tokenFor(call: CursorCall, ctx: CursorContext): { token: string; why: string } | { reason: string } {
  const cwd = call.tool === "Shell" && call.cwd ? call.cwd : (ctx.cwd ?? ctx.workspaceRoot);
  switch (call.tool) {
    case "Shell": {
      const a = analyzeShell(call.command, ctx.shell);
      const p = a.parts[0];
      if (!a.parseable || !a.allowable || a.parts.length !== 1 || p.origin !== "top" || a.writes.length)
        return {
          reason:
            "only a single simple command can be remembered: one token per part would allow each part in any combination",
        };
      if (p.dynamic || p.assignments.length)
        return { reason: "the command has expansions or VAR= prefixes, which no token states exactly" };
      const args = p.argv.slice(1).join(" ");
      const typed = p.text.slice(p.text.indexOf(p.argv[0]) + p.argv[0].length).trim();
      if (!args)
        return {
          reason: `Cursor has no token for ${p.argv[0]} without arguments: Shell(${p.argv[0]}) would allow every argument`,
        };
      if (args !== typed) return { reason: "quoted or escaped arguments cannot be stated exactly in a token" };
      if (WILD.test(p.argv[0]) || WILD.test(args) || /[()]/.test(p.argv[0]) || p.argv[0].includes(":"))
        return { reason: "the command contains wildcard characters a token would read as globs" };
      return { token: `Shell(${p.argv[0]}:${args})`, why: `exactly \`${p.text}\` (command:args form)` };
    }
    case "Read":
    case "Write": {
      const abs = resolvePath(call.path, cwd, ctx.home);
      if (WILD.test(abs) || /[[{]/.test(abs)) return { reason: "the path contains glob characters" };
      const rel = relativeToWorkspace(abs, ctx.workspaceRoot);
      return {
        token: `${call.tool}(${rel || abs})`,
        why: rel ? "this file, relative to the workspace" : "this absolute path",
      };
    }
    case "WebFetch": {
      const host = hostOf(call.url);
      return host
        ? { token: `WebFetch(${host})`, why: `fetches from ${host} only` }
        : { reason: "the URL has no host" };
    }
    case "Mcp":
      if (call.server === null)
        return { reason: "the MCP server is unknown, and Mcp(*:tool) would allow that tool on every server" };
      if (WILD.test(call.server + call.name) || call.server.includes(":"))
        return { reason: "the server or tool name contains wildcard characters" };
      return { token: `Mcp(${call.server}:${call.name})`, why: `tool ${call.name} of server ${call.server}` };
  }
}

/**
 * The deepest project store with its own allow list (the only one whose allows count, see decide.ts), else the
 * workspace's `.cursor/cli.json`.
 */
export function rememberTarget(ctx: CursorContext): string {
  const own = [...ctx.stores].reverse().find((s) => s.scope === "workspace" && s.valid && s.definesAllow);
  return own?.path ?? path.join(ctx.workspaceRoot, PROJECT_CONFIG);
}

/** What "always allow" would write, checked: after adding it the engine must allow this very call. */
export function rememberCursor(call: CursorCall, ctx: CursorContext): Remember {
  const t = tokenFor(call, ctx);
  if ("reason" in t) return refuse(t.reason);
  const file = rememberTarget(ctx);
  const parsed = parseToken(t.token);
  if (!parsed.ok) return refuse(parsed.error);
  const stores: CursorStoreView[] = ctx.stores.some((s) => s.path === file)
    ? ctx.stores.map((s) => (s.path === file ? withAllow(s, t.token, parsed.token) : s))
    : [
        ...ctx.stores,
        withAllow(
          { path: file, scope: "workspace", valid: true, strictJson: true, definesAllow: false, rules: [] },
          t.token,
          parsed.token,
        ),
      ];
  const after = decideCursor(call, { ...ctx, stores });
  if (after.decision !== "allow")
    return refuse(`even with ${t.token} in ${file} the call would ${after.decision}: ${after.reason}`);
  const before = ctx.stores.find((s) => s.path === file);
  const outer = ctx.stores.filter((s) => s.path !== file && s.valid && s.rules.some((r) => r.action === "allow"));
  const warnings =
    !before?.definesAllow && outer.length
      ? [
          `${file} gets its own allow list: the cockpit stops counting the allow entries of ${outer.map((s) => s.path).join(", ")} here (Cursor's merge of lists is undocumented)`,
        ]
      : [];
  return { ok: true, token: t.token, file, scope: "workspace", why: t.why, warnings };
}

function withAllow(s: CursorStoreView, text: string, token: CursorRule["token"]): CursorStoreView {
  const index = s.rules.filter((r) => r.action === "allow").length;
  const rule: CursorRule = { action: "allow", text, token, store: s.path, scope: s.scope, index, line: 0 };
  return { ...s, definesAllow: true, rules: [...s.rules, rule] };
}
