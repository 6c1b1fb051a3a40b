"use client";
import { useContext, useMemo } from "react";
import { HiddenTextWarning } from "@/components/ui/hidden-text";
import { AGENT_LIST, type AgentInfo } from "@/lib/agents";
import { Icon } from "@/components/ui/icon";
import type { StoreInfo } from "@/lib/stores/types";
import { revealDeep } from "@/lib/text/reveal";
import type { EntryView } from "./query";
import { EntryRow, type EntryActions } from "./entry-row";
import { FindingsContext, worstRank } from "./hygiene";
import styles from "./rules.module.css";

/** Each agent's names for its store formats (its catalogue entry's `formatLabels`), and the session entries' store. */
const FORMAT_LABEL: Record<string, string> = Object.assign(
  {},
  ...(AGENT_LIST as readonly AgentInfo[]).map((a) => a.formatLabels ?? {}),
  { database: "cockpit database" },
);

/** Stores with more entries than this start folded unless they hold a problem (a phone page stays short). */
const FOLD_OVER = 6;

/**
 * One backing store: where it is, whether it parses, its version, and the entries it holds, problems first
 * (by severity). A long store without problems starts folded; filtering opens every store.
 */
export function StoreGroup({
  store: listed,
  entries: unsorted,
  matched,
  actions,
  filtered,
}: {
  store: StoreInfo;
  entries: EntryView[];
  matched: number;
  actions: EntryActions;
  /** A filter is active, or this is the only store with entries: show everything without folding. */
  filtered?: boolean;
}) {
  // A path or a parse error can quote a file's own text: reveal it as cards do.
  const { value: store, hidden } = useMemo(() => revealDeep(listed), [listed]);
  const findings = useContext(FindingsContext);
  const entries = useMemo(
    () =>
      unsorted
        .map((e, i) => ({ e, i, rank: worstRank(findings.get(e.id)) }))
        .sort((a, b) => b.rank - a.rank || a.i - b.i)
        .map((x) => x.e),
    [unsorted, findings],
  );
  const problems = entries.filter((e) => worstRank(findings.get(e.id)) >= 2).length;
  const missing = store.version === "missing";
  const remaining = matched - entries.length;
  const open = filtered || !store.valid || problems > 0 || store.entryCount <= FOLD_OVER;
  return (
    <details
      className={`card ${styles.store} ${store.valid ? "" : styles.invalid}`}
      data-testid="store"
      data-store-path={listed.path}
      data-valid={store.valid}
      aria-label={`Store ${store.path}`}
      open={open}
    >
      <summary className={styles.storeHeader}>
        <div className={styles.storePath}>
          {store.path === "database" ? "Session entries (cockpit database)" : store.path}{" "}
          <HiddenTextWarning hidden={hidden} />
        </div>
        <div className={styles.meta}>
          <span className="tag">{FORMAT_LABEL[store.format] ?? store.format}</span>
          {store.format === "database" ? <span>rows kept per agent session</span> : <span>{store.agent}</span>}
          {store.format === "database" ? null : store.valid ? (
            <span className="tag ok">valid</span>
          ) : (
            <span className="tag bad">invalid</span>
          )}
          {missing ? (
            <span>file not present</span>
          ) : store.format !== "database" ? (
            <span className={styles.short} title={store.version}>
              v {store.version.slice(0, 8)}
            </span>
          ) : null}
          {!store.writable && store.valid ? (
            <span className="tag">read-only{store.readOnlyReason ? `: ${store.readOnlyReason}` : ""}</span>
          ) : null}
          {store.valid ? (
            <span>
              {store.entryCount} {store.entryCount === 1 ? "entry" : "entries"}
            </span>
          ) : (
            <span>entries not listed</span>
          )}
          {store.inactive ? (
            <span className="tag" data-testid="store-inactive">
              not read: {store.inactive}
            </span>
          ) : null}
          {problems ? (
            <span className={`tag ${styles.sev_warning}`}>
              {problems} {problems === 1 ? "problem" : "problems"}
            </span>
          ) : null}
        </div>
      </summary>
      <div className={styles.storeBody}>
        {store.help ? (
          <p className={`muted ${styles.storeHelp}`} role="note" data-testid="store-help">
            <Icon name="info" size={16} /> {store.help}
          </p>
        ) : null}
        {!store.valid ? (
          <div className={`error ${styles.invalidNote}`} role="note">
            <strong>This file is invalid and is never written.</strong> {store.error}
            <div>Its entries are not listed and cannot be revoked or narrowed until the file is fixed by hand.</div>
          </div>
        ) : entries.length === 0 && matched === 0 ? (
          <p className={`muted ${styles.emptyStore}`}>
            {store.entryCount === 0
              ? missing
                ? "Nothing here: the file does not exist yet."
                : "No entries."
              : "No entries match the filters."}
          </p>
        ) : (
          <ul className={styles.entries}>
            {entries.map((e) => (
              <EntryRow key={e.id} entry={e} {...actions} />
            ))}
          </ul>
        )}
        {remaining > 0 ? <p className={`muted ${styles.moreBelow}`}>{remaining} more in this file below…</p> : null}
      </div>
    </details>
  );
}
