/**
 * Every agent's stores together, through the registry: what the Rules page and `cockpit entries`, `revoke`, `narrow`
 * list and edit. An entry id names its store, so an edit by id asks each agent's stores in turn.
 */
import path from "node:path";
import { AppError, EntryNotFoundError } from "@/lib/errors";
import type { Scope } from "@/lib/policy";
import { isSessionEntryId, sessionRowEntry, type SessionEntryRow } from "@/lib/stores/session";
import type { Entry, StoreInfo } from "@/lib/stores/types";
import { rulesAgentOf } from "./index";
import { engineOf, storeAgentIds, storesOf } from "./registry";
import type { AgentStores, EntryTarget, StoreListing, StoreScope, StoreWrite } from "./types";

/** Every agent's listing together; `banners` holds each agent's whole-policy state a person must see first. */
export interface AllListing extends StoreListing {
  /**
   * Each agent's `StoreListing.banner` (Codex ignoring every rule because one rules file failed to load), in the
   * catalogue's order, from agents with at least one of the person's files present (not a missing file, not only
   * built-in defaults): a banner about an agent nobody uses here is noise. `banner` is the first of them.
   */
  banners: string[];
}

export interface ListAllInput extends StoreScope {
  /** One agent's entries only. */
  agent?: string;
  scope?: Scope;
  /** Session entries as data (the database's rows); listed as one "database" store when given. */
  sessionRows?: readonly SessionEntryRow[];
}

/** Read every agent's stores now and list their entries (and the session entries, when rows are given). */
export async function listAllEntries(input: ListAllInput): Promise<AllListing> {
  const agents = input.agent ? [input.agent] : storeAgentIds();
  const { agent: _one, scope: _scope, sessionRows: _rows, ...where } = input;
  const listings = await Promise.all(agents.map(async (a) => (await storesOf(a)).list(where)));
  const inScope = (s: { scope: Scope }) => !input.scope || s.scope === input.scope;
  const entries = listings.flatMap((l) => l.entries).filter(inScope);
  const stores = listings.flatMap((l) => l.stores).filter(inScope);
  const banners = listings.flatMap((l) => (l.banner && l.stores.some(isPersonsFile) ? [l.banner] : []));
  if (input.sessionRows && (!input.scope || input.scope === "session")) {
    const session = await sessionListing(input, input.sessionRows, agents);
    entries.push(...session.entries);
    stores.push(session.store);
  }
  return { entries, stores, banners, ...(banners[0] ? { banner: banners[0] } : {}) };
}

/** A file of the person's: not a missing one, not the agent's built-in defaults, not the cockpit's database. */
function isPersonsFile(s: StoreInfo): boolean {
  return !["missing", "builtin", "database"].includes(s.version);
}

async function sessionListing(
  input: ListAllInput,
  rows: readonly SessionEntryRow[],
  agents: string[],
): Promise<{ entries: Entry[]; store: StoreInfo }> {
  const store: StoreInfo = {
    path: "database",
    format: "database",
    agent: (input.agent ?? agents[0]) as StoreInfo["agent"],
    scope: "session",
    version: "database",
    valid: true,
    writable: true,
    base: path.resolve(input.workspace),
    entryCount: 0,
  };
  const entries: Entry[] = [];
  for (const row of rows) {
    if (input.agent && row.agent !== input.agent) continue;
    const entry = sessionRowEntry(row);
    const described = (await engineOf(rulesAgentOf(row.agent))).describeRule(row.rule, row.action);
    if (described.ok) {
      entry.tool = described.value.tool;
      entry.specifier = described.value.specifier;
    } else entry.malformed = described.error;
    entries.push(entry);
    store.entryCount++;
  }
  return { entries, store };
}

/**
 * Apply an edit to the entry an id names: each agent's stores are asked in the catalogue's order until one holds it
 * (the others answer not found without writing).
 */
export async function editEntry<T extends StoreWrite>(
  target: EntryTarget,
  edit: (stores: AgentStores) => Promise<T>,
): Promise<T> {
  if (isSessionEntryId(target.id)) throw new EntryNotFoundError(`session entry ${target.id} needs the running server`);
  for (const agent of storeAgentIds()) {
    try {
      return await edit(await storesOf(agent));
    } catch (error) {
      if (!(error instanceof AppError && error.code === "not_found")) throw error;
    }
  }
  throw new EntryNotFoundError(`no entry ${target.id} — refresh`);
}
