"use client";
import { useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { EntryFilters, filtersToSearch } from "@/lib/entries/filters";

/**
 * Workspace and filters live in the URL (shareable, back-button friendly). History calls go
 * through Next's router integration, so no server round trip: the list refetches from the API.
 */
function filtersOf(params: { get(name: string): string | null }) {
  return {
    scope: params.get("scope") ?? undefined,
    action: params.get("action") ?? undefined,
    tool: params.get("tool") ?? undefined,
    q: params.get("q") ?? undefined,
    finding: params.get("finding") ?? undefined,
  };
}

/** The filters in the address bar now: two quick changes before a re-render must both count. */
function currentFilters(fallback: EntryFilters): EntryFilters {
  if (typeof window === "undefined") return fallback;
  const parsed = EntryFilters.safeParse(filtersOf(new URLSearchParams(window.location.search)));
  return parsed.success ? parsed.data : fallback;
}

export function useRulesUrl(fallbackWorkspace: string) {
  const params = useSearchParams();
  const workspace = params.get("workspace") || fallbackWorkspace;
  const raw = filtersOf(params);
  const parsed = EntryFilters.safeParse(raw);
  const key = JSON.stringify(raw);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const filters = useMemo(() => (parsed.success ? parsed.data : {}), [key]);

  const navigate = useCallback(
    (next: { workspace?: string; filters?: EntryFilters }, mode: "push" | "replace" = "push") => {
      const search = filtersToSearch(next.workspace ?? workspace, next.filters ?? currentFilters(filters));
      const url = `${window.location.pathname}?${search}`;
      if (mode === "push") window.history.pushState(null, "", url);
      else window.history.replaceState(null, "", url);
    },
    [workspace, filters],
  );

  return {
    workspace,
    filters,
    // Patches what the address bar holds at the moment of the change, not what the last render saw.
    setFilters: (patch: Partial<EntryFilters>, mode: "push" | "replace" = "push") =>
      navigate({ filters: { ...currentFilters(filters), ...patch } }, mode),
    clearFilters: () => navigate({ filters: {} }),
    setWorkspace: (id: string) => navigate({ workspace: id, filters: {} }),
  };
}
