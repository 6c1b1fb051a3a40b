import "server-only";
import { z } from "zod";
import type { Db } from "@/db/client";
import { actorLabel, type Actor } from "@/lib/auth/actor";
import { listAllEntries } from "@/lib/agents/all-stores";
import { readStoreBytes, type Entry, type StoreInfo } from "@/lib/stores";
import { ruleUsage } from "./impact";
import { withStoreErrors, workspaceStores } from "./context";
import { requireCan } from "@/lib/auth/access";
import { SCOPES } from "@/lib/policy/types";
import { EntryFilters, matchesFilters, toolOf } from "./filters";
import { entriesWithFinding } from "./hygiene-workspace";

export const ListWorkspaceEntriesInput = EntryFilters.extend({
  workspace: z.string().min(1),
  offset: z.coerce.number().int().min(0).default(0),
  // No limit by default: API callers get every entry; the page asks for chunks.
  limit: z.coerce.number().int().min(1).max(1_000_000).default(1_000_000),
});
export type ListWorkspaceEntriesInput = z.input<typeof ListWorkspaceEntriesInput>;

/** An entry as the page shows it: the store layer's entry plus the text of its line in the file. */
export interface EntryView extends Entry {
  lineText?: string;
  /** From the audit log: how many logged calls this rule decided, and the last time. */
  usage?: { count: number; lastUsed: string | null };
}

export interface WorkspaceListing {
  workspace: { id: string; name: string; path: string };
  stores: StoreInfo[];
  entries: EntryView[];
  /** Entries in the workspace before filtering, and after. */
  total: number;
  matched: number;
  offset: number;
  limit: number;
  /** Tool facet over all entries, for the filter's choices. */
  tools: string[];
  counts: Record<(typeof SCOPES)[number], number>;
  /** Entries matching the filters per store path, so a group can say how many are still to load. */
  matchedByStore: Record<string, number>;
  readAt: string;
  /**
   * The loudest states the page has, shown above everything (`AllListing.banners`): an agent ignoring every one of its
   * rules (Codex, when one rules file fails to load: "Codex is ignoring all your rules because of FILE, line N: …").
   */
  banners?: string[];
}

const scopeRank = (s: string) => SCOPES.indexOf(s as (typeof SCOPES)[number]);

/** Read every store of the workspace now (no cache), filter on the server, return one page. */
export async function listWorkspaceEntries({
  db,
  actor,
  input,
}: {
  db: Db;
  actor: Actor;
  input: ListWorkspaceEntriesInput;
}): Promise<WorkspaceListing> {
  const args = ListWorkspaceEntriesInput.parse(input);
  requireCan(actor, "entry.view", args.workspace);
  const { workspace, paths, sessionSource } = await workspaceStores(db, actorLabel(actor), args.workspace);
  const sessionRows = await sessionSource.list();
  const listing = await withStoreErrors(() => listAllEntries({ ...paths, sessionRows }));
  const storeOrder = new Map(listing.stores.map((s, i) => [s.path, i]));
  const all = listing.entries
    .map((e, i) => ({ e, i }))
    .sort(
      (a, b) =>
        scopeRank(a.e.scope) - scopeRank(b.e.scope) ||
        (storeOrder.get(a.e.store.path) ?? 0) - (storeOrder.get(b.e.store.path) ?? 0) ||
        a.i - b.i,
    )
    .map(({ e }) => e);
  // The hygiene filter: entries the lint flags (the summary's counts link here).
  const flagged = args.finding
    ? await entriesWithFinding(db, workspace.id, { ...paths, sessionSource }, args.finding)
    : null;
  const matched = all.filter((e) => matchesFilters(e, args) && (!flagged || flagged.has(e.id)));
  const page = matched.slice(args.offset, args.offset + args.limit);
  const counts = { session: 0, workspace: 0, global: 0, managed: 0 };
  for (const e of all) counts[e.scope]++;
  const matchedByStore: Record<string, number> = {};
  for (const e of matched) matchedByStore[e.store.path] = (matchedByStore[e.store.path] ?? 0) + 1;
  return {
    workspace: { id: workspace.id, name: workspace.name, path: workspace.path },
    stores: [...listing.stores].sort((a, b) => scopeRank(a.scope) - scopeRank(b.scope)),
    entries: await withUsage(db, workspace.id, await withLineText(page)),
    total: all.length,
    matched: matched.length,
    offset: args.offset,
    limit: args.limit,
    tools: [...new Set(all.map(toolOf))].sort(),
    counts,
    matchedByStore,
    readAt: new Date().toISOString(),
    ...(listing.banners.length ? { banners: listing.banners } : {}),
  };
}

/** Adds each entry's use count and last use from the audit log (one aggregate query per page). */
async function withUsage(db: Db, workspaceId: string, entries: EntryView[]): Promise<EntryView[]> {
  const usage = await ruleUsage(
    db,
    workspaceId,
    entries.map((e) => e.rule),
  );
  return entries.map((e) => ({ ...e, usage: usage.get(e.rule) ?? { count: 0, lastUsed: null } }));
}

/**
 * Adds the file's line for each entry (what a revoke removes), read once per store; skipped when
 * the file moved on since listing, so a shown line always belongs to the listed version.
 */
async function withLineText(entries: Entry[]): Promise<EntryView[]> {
  const files = new Map<string, Promise<string[] | null>>();
  const linesOf = (e: Entry) => {
    let lines = files.get(e.store.path);
    if (!lines) {
      lines = readStoreBytes(e.store.path).then(
        (read) => (read.version === e.store.version ? read.text.split(/\r?\n/) : null),
        () => null,
      );
      files.set(e.store.path, lines);
    }
    return lines;
  };
  return Promise.all(
    entries.map(async (e) => {
      if (e.scope === "session" || e.line < 1) return e;
      const lines = await linesOf(e);
      const text = lines?.[e.line - 1];
      return text === undefined ? e : { ...e, lineText: text.replace(/^\uFEFF/, "") };
    }),
  );
}
