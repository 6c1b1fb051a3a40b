/** Query keys and paging of the Rules listing; the requests themselves are in lib/client/api.ts. */
import type { EntryFilters } from "@/lib/entries/filters";
import { ENTRIES_PAGE_SIZE, type WorkspaceListing } from "@/lib/client/api";

export type { EntryView, WorkspaceListing } from "@/lib/client/api";
export { fetchEntriesPage } from "@/lib/client/api";

export const PAGE_SIZE = ENTRIES_PAGE_SIZE;

export const entriesKey = (workspace: string, filters: EntryFilters) =>
  ["entries", workspace, filters.scope ?? "", filters.action ?? "", filters.tool ?? "", filters.q ?? ""] as const;

export const nextOffset = (last: WorkspaceListing) =>
  last.offset + last.entries.length < last.matched ? last.offset + last.entries.length : undefined;
