/** Browser side of /api/v1/entries: one fetch helper that turns refusals into readable values. */
import type { EntryFilters } from "@/lib/entries/filters";
import { filtersToSearch } from "@/lib/entries/filters";
import type { WorkspaceListing } from "@/lib/entries/list-workspace-entries";

export type { EntryView, WorkspaceListing } from "@/lib/entries/list-workspace-entries";

export const PAGE_SIZE = 200;

export type ApiResult<T> =
  { ok: true; status: number; data: T } | { ok: false; status: number; error: string; kind?: string };

export async function callApi<T>(
  url: string,
  init?: { method?: string; body?: unknown; signal?: AbortSignal },
): Promise<ApiResult<T>> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: init?.method ?? (init?.body === undefined ? "GET" : "POST"),
      headers: init?.body === undefined ? undefined : { "content-type": "application/json" },
      body: init?.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init?.signal,
      cache: "no-store",
    });
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    return { ok: false, status: 0, error: "the cockpit server did not answer — check it is running" };
  }
  const body = (await res.json().catch(() => ({}))) as { error?: string; details?: { kind?: string } };
  if (res.ok) return { ok: true, status: res.status, data: body as T };
  return {
    ok: false,
    status: res.status,
    error: body.error ?? `request failed (${res.status})`,
    kind: body.details?.kind,
  };
}

export const entriesKey = (workspace: string, filters: EntryFilters) =>
  ["entries", workspace, filters.scope ?? "", filters.action ?? "", filters.tool ?? "", filters.q ?? ""] as const;

export async function fetchEntriesPage(
  workspace: string,
  filters: EntryFilters,
  offset: number,
): Promise<WorkspaceListing> {
  const url = `/api/v1/entries?${filtersToSearch(workspace, filters)}&offset=${offset}&limit=${PAGE_SIZE}`;
  const result = await callApi<WorkspaceListing>(url);
  if (!result.ok) throw new Error(result.error);
  return result.data;
}

export const nextOffset = (last: WorkspaceListing) =>
  last.offset + last.entries.length < last.matched ? last.offset + last.entries.length : undefined;
