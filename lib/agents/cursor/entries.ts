/**
 * Cursor stores as the cockpit lists entries (the `cockpit entries --json` shape: id, scope, kind, agent, action, rule,
 * store{path, format, version, valid}, line, writable). Pure: from loaded stores to rows, and back from an id.
 */
import { sha256 } from "@/lib/stores/read-store";
import type { CursorAction, CursorRule, CursorScope } from "./config";
import type { CursorStore } from "./stores";

export const CURSOR_FORMAT = "cursor-json";

export interface CursorEntry {
  id: string;
  scope: CursorScope;
  kind: "rule";
  agent: "cursor";
  action: CursorAction;
  rule: string;
  /** `Shell`, `Read`, `Write`, `WebFetch`, `Mcp`; null when malformed. */
  tool: string | null;
  /** The part in parentheses. */
  specifier: string | null;
  /** Why the engine ignores the entry (still listed and revocable). */
  malformed?: string;
  /** Readings the docs leave open for this token, as the engine applies them. */
  notes: string[];
  store: { path: string; format: typeof CURSOR_FORMAT; version: string; valid: boolean; error?: string };
  line: number;
  writable: boolean;
}

/** Stable across listings while the file keeps the entry: path, action, text and which occurrence of that text. */
export function cursorEntryId(store: string, action: CursorAction, text: string, occurrence: number): string {
  return sha256(`${store}\0rule\0${action}\0${text}\0${occurrence}`).slice(0, 16);
}

export function cursorEntries(stores: CursorStore[]): CursorEntry[] {
  const out: CursorEntry[] = [];
  for (const s of stores) {
    const seen = new Map<string, number>();
    for (const r of s.rules) {
      const key = `${r.action}\0${r.text}`;
      const occurrence = seen.get(key) ?? 0;
      seen.set(key, occurrence + 1);
      out.push({
        id: cursorEntryId(s.path, r.action, r.text, occurrence),
        scope: s.scope,
        kind: "rule",
        agent: "cursor",
        action: r.action,
        rule: r.text,
        tool: r.token?.kind ?? null,
        specifier: r.token ? (/\((.*)\)\s*$/s.exec(r.text)?.[1] ?? null) : null,
        ...(r.error ? { malformed: r.error } : {}),
        notes: r.token?.notes ?? [],
        store: { path: s.path, format: CURSOR_FORMAT, version: s.version, valid: s.valid, ...(s.error ? { error: s.error } : {}) },
        line: r.line,
        writable: s.writable,
      });
    }
  }
  return out;
}

/** The store and entry an id names, or null. */
export function findCursorEntry(stores: CursorStore[], id: string): { store: CursorStore; rule: CursorRule } | null {
  for (const s of stores) {
    const seen = new Map<string, number>();
    for (const r of s.rules) {
      const key = `${r.action}\0${r.text}`;
      const occurrence = seen.get(key) ?? 0;
      seen.set(key, occurrence + 1);
      if (cursorEntryId(s.path, r.action, r.text, occurrence) === id) return { store: s, rule: r };
    }
  }
  return null;
}
