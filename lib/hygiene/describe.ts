/** How findings name entries and places, for people. */
import path from "node:path";
import type { LintItem } from "./types";

/** `.claude/settings.local.json:12`, `~/.claude/settings.json:3`, `session abc` — short and unambiguous. */
export function where(item: LintItem, workspace: string, home: string): string {
  const e = item.entry;
  if (e.scope === "session") return `session ${e.agentSessionId ?? e.id}`;
  const p = e.store.path;
  const rel = p.startsWith(workspace + path.sep)
    ? p.slice(workspace.length + 1)
    : p.startsWith(home + path.sep)
      ? `~/${p.slice(home.length + 1)}`
      : p;
  return `${rel}:${e.line}`;
}

/** The entry's text on one line, shortened for messages. */
export function quote(item: LintItem, max = 120): string {
  const t = item.entry.rule.replace(/\s+/g, " ").trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}
