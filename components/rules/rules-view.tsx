"use client";
import { keepPreviousData, useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { HiddenTextWarning } from "@/components/ui/hidden-text";
import { SCOPES } from "@/lib/policy/types";
import type { StoreInfo } from "@/lib/stores/types";
import { revealDeep } from "@/lib/text/reveal";
import { AddRuleDialog } from "./add-rule-dialog";
import { byEntry, CleanUpDialog, FindingsContext, hygieneKey, HygieneSummary, useHygiene } from "./hygiene";
import { entriesKey, fetchEntriesPage, nextOffset, type EntryView } from "./query";
import { NarrowDialog } from "./narrow-dialog";
import { RevokeDialog } from "./revoke-dialog";
import { RulesFilters } from "./rules-filters";
import styles from "./rules.module.css";
import { StoreGroup } from "./store-group";
import { useRulesUrl } from "./use-rules-url";
import type { WriteOutcome } from "./write-outcome";
import { WorkspaceSelect } from "@/components/workspaces/workspace-select";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { Time } from "@/components/ui/time";

import type { WorkspaceOption } from "@/lib/client/api";
export type { WorkspaceOption };

const SCOPE_TITLE = {
  session: "Session",
  workspace: "Workspace",
  global: "Global — every project",
  managed: "Managed (read-only)",
} as const;

type Dialog =
  | { kind: "revoke"; entry: EntryView }
  | { kind: "narrow"; entry: EntryView; to?: string }
  | { kind: "add" }
  | { kind: "clean-up" }
  | null;

/** A store file that does not exist: listed compactly, since it holds nothing (an add creates it). */
const isAbsent = (s: StoreInfo) => s.version === "missing" && s.valid;

/**
 * A state of an agent's whole policy (`StoreListing.banner`, e.g. Codex ignoring every rule because one broken file
 * voids its whole policy): above everything else. The agent's text says the consequence.
 */
function PolicyBanner({ text }: { text: string }) {
  // The message quotes a file name and its parse error: reveal hidden characters as store paths do.
  const { value, hidden } = useMemo(() => revealDeep({ text }), [text]);
  return (
    <div className={`error ${styles.policyBanner}`} role="alert" data-testid="policy-banner">
      <strong>{value.text}</strong> <HiddenTextWarning hidden={hidden} />
    </div>
  );
}

function AbsentStores({ stores }: { stores: StoreInfo[] }) {
  if (stores.length === 0) return null;
  return (
    <div className={`card muted ${styles.absent}`} data-testid="absent-stores">
      Not present (no entries; adding a rule creates the file):
      <ul>
        {stores.map((s) => (
          <li key={s.path} className="mono">
            {s.path} <span className="tag">{s.agent}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The Rules page body: workspace picker, filters, entries grouped by scope then store, write dialogs. */
export function RulesView({
  workspaces,
  initialWorkspace,
  writable,
}: {
  workspaces: WorkspaceOption[];
  initialWorkspace: string;
  /** Workspaces where this person may revoke and narrow (admin there). */
  writable: string[];
}) {
  const { workspace, filters, setFilters, clearFilters, setWorkspace } = useRulesUrl(initialWorkspace);
  const canWrite = writable.includes(workspace);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [outcome, setOutcome] = useState<WriteOutcome | null>(null);
  const query = useInfiniteQuery({
    queryKey: entriesKey(workspace, filters),
    queryFn: ({ pageParam }) => fetchEntriesPage(workspace, filters, pageParam),
    initialPageParam: 0,
    getNextPageParam: nextOffset,
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
  const {
    data,
    error,
    isFetching,
    isPlaceholderData,
    hasNextPage,
    isFetchingNextPage,
    fetchNextPage,
    refetch: refetchEntries,
  } = query;
  const queryClient = useQueryClient();
  const hygiene = useHygiene(workspace);
  const findingsById = useMemo(() => byEntry(hygiene.data?.findings), [hygiene.data]);
  // Every refresh re-reads both the entries and their findings.
  const refetch = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: hygieneKey(workspace) });
    return refetchEntries();
  }, [queryClient, workspace, refetchEntries]);
  const first = data?.pages[0];
  const entries = useMemo(() => {
    const seen = new Set<string>();
    return (data?.pages ?? [])
      .flatMap((p) => p.entries)
      .filter((e) => (seen.has(e.id) ? false : (seen.add(e.id), true)));
  }, [data]);
  const byStore = useMemo(() => {
    const map = new Map<string, EntryView[]>();
    for (const e of entries) {
      const list = map.get(e.store.path);
      if (list) list.push(e);
      else map.set(e.store.path, [e]);
    }
    return map;
  }, [entries]);

  // Load the next chunk when the end of the list scrolls into view. One observer for the list's
  // life: it fires on arrival only, so a chunk that leaves the end in view doesn't cascade loads.
  const sentinel = useRef<HTMLDivElement>(null);
  const loadMore = useRef(() => {});
  loadMore.current = () => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  };
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasNextPage) return;
    const observer = new IntersectionObserver(
      (items) => {
        if (items.some((i) => i.isIntersecting)) loadMore.current();
      },
      { rootMargin: "600px" },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasNextPage]);

  const refresh = useCallback(() => {
    setDialog(null);
    void refetch();
  }, [refetch]);
  const done = useCallback(
    (o: WriteOutcome) => {
      setDialog(null);
      setOutcome(o);
      void refetch();
    },
    [refetch],
  );
  const actions = useMemo(
    () =>
      canWrite
        ? {
            onRevoke: (entry: EntryView) => setDialog({ kind: "revoke", entry }),
            onNarrow: (entry: EntryView, to?: string) => setDialog({ kind: "narrow", entry, to }),
            workspace,
          }
        : {},
    [canWrite, workspace],
  );
  const current = workspaces.find((w) => w.id === workspace);
  const stores: StoreInfo[] = (first?.stores ?? []).filter((s) => !filters.scope || s.scope === filters.scope);

  return (
    <FindingsContext.Provider value={findingsById}>
      <div className={styles.page}>
        <div className={`card ${styles.toolbar}`}>
          <div className={`${styles.filterField} ${styles.workspaceField}`}>
            <WorkspaceSelect id="workspace-picker" workspaces={workspaces} value={workspace} onChange={setWorkspace} />
          </div>
          {canWrite ? (
            <Button variant="primary" onClick={() => setDialog({ kind: "add" })}>
              Add rule
            </Button>
          ) : null}
        </div>
        {(first?.banners ?? []).map((text) => (
          <PolicyBanner key={text} text={text} />
        ))}
        <HygieneSummary
          workspace={workspace}
          canWrite={canWrite}
          active={filters.finding}
          onFilter={(finding) => setFilters({ finding })}
          onCleanUp={() => setDialog({ kind: "clean-up" })}
        />
        <RulesFilters
          filters={filters}
          tools={first?.tools ?? []}
          counts={first?.counts}
          onChange={setFilters}
          onClear={clearFilters}
        />
        <div className={styles.status}>
          <span role="status" aria-live="polite" data-testid="list-status">
            {error
              ? null
              : first
                ? `${first.matched} of ${first.total} entries${isPlaceholderData ? " — updating…" : ""}`
                : "Reading stores…"}
          </span>
          <span className="row">
            {first ? (
              <span className="muted" data-testid="read-at">
                Read from disk at <Time iso={first.readAt} />
              </span>
            ) : null}
            <button type="button" onClick={() => void refetch()} disabled={isFetching && !isFetchingNextPage}>
              {isFetching && !isFetchingNextPage ? "Reading…" : "Refresh"}
            </button>
          </span>
        </div>
        {outcome ? (
          <Notice onDismiss={() => setOutcome(null)}>
            {outcome.message}
            {outcome.warning ? <div className={`warning ${styles.outcomeWarning}`}>{outcome.warning}</div> : null}
          </Notice>
        ) : null}
        {error ? <Alert>{(error as Error).message}</Alert> : null}
        {SCOPES.map((scope) => {
          const scoped = stores.filter((s) => s.scope === scope);
          if (scoped.length === 0) return null;
          return (
            <section key={scope} aria-label={`${SCOPE_TITLE[scope]} entries`} data-testid={`scope-${scope}`}>
              <h2 className={styles.scopeHeading}>
                {SCOPE_TITLE[scope]}{" "}
                <span className={`muted ${styles.scopeCount}`}>
                  {plural(first?.counts[scope] ?? 0, "entry", "entries")}
                </span>
              </h2>
              {scoped
                .filter((store) => !isAbsent(store))
                .map((store) => (
                  <StoreGroup
                    key={store.path}
                    store={store}
                    entries={byStore.get(store.path) ?? []}
                    matched={first?.matchedByStore[store.path] ?? 0}
                    actions={actions}
                    filtered={
                      Boolean(filters.scope || filters.action || filters.tool || filters.q || filters.finding) ||
                      stores.filter((s) => s.entryCount > 0).length <= 1
                    }
                  />
                ))}
              <AbsentStores stores={scoped.filter(isAbsent)} />
            </section>
          );
        })}
        <div ref={sentinel} className={styles.more}>
          {hasNextPage ? (
            <button type="button" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
              {isFetchingNextPage ? "Loading…" : `Show more (${(first?.matched ?? 0) - entries.length} left)`}
            </button>
          ) : null}
        </div>
        {dialog?.kind === "revoke" ? (
          <RevokeDialog
            workspace={workspace}
            entry={dialog.entry}
            onClose={() => setDialog(null)}
            onDone={done}
            onRefresh={refresh}
          />
        ) : null}
        {dialog?.kind === "narrow" ? (
          <NarrowDialog
            workspace={workspace}
            entry={dialog.entry}
            initialTo={dialog.to}
            onClose={() => setDialog(null)}
            onDone={done}
            onRefresh={refresh}
          />
        ) : null}
        {dialog?.kind === "clean-up" ? (
          <CleanUpDialog workspace={workspace} onClose={() => setDialog(null)} onDone={done} />
        ) : null}
        {dialog?.kind === "add" ? (
          <AddRuleDialog
            workspace={workspace}
            workspacePath={current?.path ?? ""}
            onClose={() => setDialog(null)}
            onDone={done}
          />
        ) : null}
      </div>
    </FindingsContext.Provider>
  );
}
