import type { Action, Agent, Entry } from "./types";

/** One session-scope entry as the database holds it (the table belongs to the cards layer). */
export interface SessionEntryRow {
  id: string;
  agentSessionId: string;
  agent: Agent;
  action: Action;
  rule: string;
  createdAt: string;
}

/** The fields of a session entry the engine turns into a rule (rows as data, from the database or the API). */
export type SessionRuleRow = Pick<SessionEntryRow, "id" | "agentSessionId" | "action" | "rule"> & { agent: string };

/** What the store layer needs from the database to list and revoke session entries. */
export interface SessionEntrySource {
  list(): Promise<SessionEntryRow[]>;
  revoke(id: string): Promise<void>;
}

export const SESSION_ID_PREFIX = "session:";
export const sessionEntryId = (rowId: string) => `${SESSION_ID_PREFIX}${rowId}`;
export const isSessionEntryId = (id: string) => id.startsWith(SESSION_ID_PREFIX);

/** A session row as a listed entry (tool, specifier or malformed are filled in by whoever parses the rule). */
export function sessionRowEntry(row: SessionEntryRow): Entry {
  return {
    id: sessionEntryId(row.id),
    scope: "session",
    kind: "rule",
    agent: row.agent,
    action: row.action,
    rule: row.rule,
    tool: null,
    specifier: null,
    store: { path: "database", format: "database", version: "database", valid: true },
    line: 0,
    writable: true,
    agentSessionId: row.agentSessionId,
    createdAt: row.createdAt,
  };
}
