/**
 * Cursor stores as the cockpit lists entries (the `cockpit entries --json` shape: id, scope, kind, agent, action, rule,
 * store{path, format, version, valid}, line, writable). Pure: from loaded stores to rows, and back from an id.
 */
import { createHash } from "node:crypto";
import type { CursorAction, CursorRule, CursorScope, CursorStore } from "./config";

export const CURSOR_FORMAT = "cursor-json" as const;

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
  return createHash("sha256").update(`${store}\0rule\0${action}\0${text}\0${occurrence}`).digest("hex").slice(0, 16);
}

/** Every rule of every store with its id (the nth identical string of a list gets occurrence n). */
function* withIds(stores: CursorStore[]): Generator<{ store: CursorStore; rule: CursorRule; id: string }> {
  for (const store of stores) {
    const seen = new Map<string, number>();
    for (const rule of store.rules) {
      const key = `${rule.action}\0${rule.text}`;
      const occurrence = seen.get(key) ?? 0;
      seen.set(key, occurrence + 1);
      yield { store, rule, id: cursorEntryId(store.path, rule.action, rule.text, occurrence) };
    }
  }
}

export function cursorEntries(stores: CursorStore[]): CursorEntry[] {
  return [...withIds(stores)].map(({ store: s, rule: r, id }) => ({
    id,
    scope: s.scope,
    kind: "rule",
    agent: "cursor",
    action: r.action,
    rule: r.text,
    tool: r.token?.kind ?? null,
    specifier: r.token ? (/\((.*)\)\s*$/s.exec(r.text)?.[1] ?? null) : null,
    ...(r.error ? { malformed: r.error } : {}),
    notes: r.token?.notes ?? [],
    store: {
      path: s.path,
      format: CURSOR_FORMAT,
      version: s.version,
      valid: s.valid,
      ...(s.error ? { error: s.error } : {}),
    },
    line: r.line,
    writable: s.writable,
  }));
}

/** The store and entry an id names, or null. */
export function findCursorEntry(stores: CursorStore[], id: string): { store: CursorStore; rule: CursorRule } | null {
  for (const hit of withIds(stores)) if (hit.id === id) return { store: hit.store, rule: hit.rule };
  return null;
}

/** The id of one rule of the listed stores (its store's nth identical string). */
export function findCursorEntryId(stores: CursorStore[], rule: CursorRule): string {
  for (const hit of withIds(stores)) if (hit.rule === rule) return hit.id;
  return cursorEntryId(rule.store, rule.action, rule.text, 0);
}
