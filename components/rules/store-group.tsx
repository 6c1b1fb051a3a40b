"use client";
import { useMemo } from "react";
import { HiddenTextWarning } from "@/components/ui/hidden-text";
import type { StoreInfo } from "@/lib/stores/types";
import { revealDeep } from "@/lib/text/reveal";
import type { EntryView } from "./query";
import { EntryRow, type EntryActions } from "./entry-row";
import styles from "./rules.module.css";

const FORMAT_LABEL: Record<string, string> = {
  "claude-json": "Claude Code JSON",
  "commandcode-json": "Command Code JSONC",
  "mevedel-plist": "mevedel plist",
  database: "cockpit database",
};

/** One backing store: where it is, whether it parses, its version, and the entries it holds. */
export function StoreGroup({
  store: listed,
  entries,
  matched,
  actions,
}: {
  store: StoreInfo;
  entries: EntryView[];
  matched: number;
  actions: EntryActions;
}) {
  // A path or a parse error can quote a file's own text: reveal it as cards do.
  const { value: store, hidden } = useMemo(() => revealDeep(listed), [listed]);
  const missing = store.version === "missing";
  const remaining = matched - entries.length;
  return (
    <section
      className={`card ${styles.store} ${store.valid ? "" : styles.invalid}`}
      data-testid="store"
      data-store-path={listed.path}
      data-valid={store.valid}
      aria-label={`Store ${store.path}`}
    >
      <div className={styles.storeHeader}>
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
        </div>
      </div>
      <div className={styles.storeBody}>
        {!store.valid ? (
          <div className="error" role="note" style={{ marginTop: "0.75rem" }}>
            <strong>This file is invalid and is never written.</strong> {store.error}
            <div>Its entries are not listed and cannot be revoked or narrowed until the file is fixed by hand.</div>
          </div>
        ) : entries.length === 0 && matched === 0 ? (
          <p className="muted" style={{ margin: "0.6rem 0 0" }}>
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
        {remaining > 0 ? (
          <p className="muted" style={{ margin: "0.5rem 0 0" }}>
            {remaining} more in this file below…
          </p>
        ) : null}
      </div>
    </section>
  );
}
