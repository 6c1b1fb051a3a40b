/** Query options of the Rules page (listing, hygiene, narrowing suggestions); requests are in lib/client/api.ts. */
import { queryOptions } from "@tanstack/react-query";
import type { EntryFilters } from "@/lib/entries/filters";
import { ENTRIES_PAGE_SIZE, fetchHygiene, narrowingSuggestions, unwrap, type WorkspaceListing } from "@/lib/client/api";

export type { EntryView, WorkspaceListing } from "@/lib/client/api";
export { fetchEntriesPage } from "@/lib/client/api";

export const PAGE_SIZE = ENTRIES_PAGE_SIZE;

export const entriesKey = (workspace: string, filters: EntryFilters) =>
  [
    "entries",
    workspace,
    filters.scope ?? "",
    filters.action ?? "",
    filters.tool ?? "",
    filters.q ?? "",
    filters.finding ?? "",
  ] as const;

export const nextOffset = (last: WorkspaceListing) =>
  last.offset + last.entries.length < last.matched ? last.offset + last.entries.length : undefined;

export const hygieneKey = (workspace: string) => ["hygiene", workspace] as const;

/** The lint's findings and summary for one workspace. */
export const hygieneQuery = (workspace: string) =>
  queryOptions({ queryKey: hygieneKey(workspace), queryFn: () => unwrap(fetchHygiene(workspace)), staleTime: 5_000 });

/** Narrower entries the engine can prove, for "Narrow to…" and the narrow dialog. */
export const narrowSuggestionsQuery = (workspace: string, entryId: string) =>
  queryOptions({
    queryKey: ["hygiene", workspace, "suggestions", entryId] as const,
    queryFn: async () => (await unwrap(narrowingSuggestions(workspace, entryId))).suggestions,
    staleTime: 30_000,
  });
