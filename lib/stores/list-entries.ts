import path from "node:path";
import { discoverStores, SETTINGS_AGENTS, type StorePaths } from "./discover";
import { loadStore, type LoadedStore } from "./load-store";
import { parseAnyRule, specifierText } from "./policy-adapter";
import { sessionRowEntry, type SessionEntryRow } from "./session";
import type { Agent, Entry, Scope, StoreInfo } from "./types";

export interface ListEntriesInput extends StorePaths {
  agent?: Agent;
  scope?: Scope;
  /** Session entries as data (the database's rows); listed as one "database" store when given. */
  sessionRows?: readonly SessionEntryRow[];
}

export interface EntryListing {
  entries: Entry[];
  stores: StoreInfo[];
}

/** Read every store now (nothing cached) and list its entries; invalid stores contribute none. */
export async function loadAllStores(input: StorePaths & { agent?: Agent }): Promise<LoadedStore[]> {
  const locations = discoverStores(input, input.agent);
  return Promise.all(locations.map((loc) => loadStore(loc, path.resolve(input.home))));
}

export async function listEntries(input: ListEntriesInput): Promise<EntryListing> {
  const loaded = await loadAllStores(input);
  const stores = loaded.map((s) => s.info).filter((s) => !input.scope || s.scope === input.scope);
  const entries = loaded
    .flatMap((s) => s.located.map((l) => l.entry))
    .filter((e) => !input.scope || e.scope === input.scope);
  if (input.sessionRows && (!input.scope || input.scope === "session")) {
    const rows = input.sessionRows;
    const sessionStore: StoreInfo = {
      path: "database",
      format: "database",
      agent: input.agent ?? SETTINGS_AGENTS[0]!,
      scope: "session",
      version: "database",
      valid: true,
      writable: true,
      base: path.resolve(input.workspace),
      entryCount: 0,
    };
    for (const row of rows) {
      if (input.agent && row.agent !== input.agent) continue;
      const entry = sessionRowEntry(row);
      const source = {
        scope: "session" as const,
        store: `session:${row.agentSessionId}`,
        base: path.resolve(input.workspace),
      };
      const parsed = parseAnyRule(row.rule, row.action, row.agent, source);
      if (parsed.ok) {
        entry.tool = parsed.value.tool;
        entry.specifier = specifierText(parsed.value.specifier);
      } else entry.malformed = parsed.error;
      entries.push(entry);
      sessionStore.entryCount++;
    }
    stores.push(sessionStore);
  }
  return { entries, stores };
}
