"use client";
import { useEffect, useRef, useState } from "react";
import type { EntryFilters } from "@/lib/entries/filters";
import styles from "./rules.module.css";

const SCOPE_LABEL = { session: "Session", workspace: "Workspace", global: "Global", managed: "Managed" } as const;

/** Scope, action, tool and free-text filters; every change goes to the URL. */
export function RulesFilters({
  filters,
  tools,
  counts,
  onChange,
  onClear,
}: {
  filters: EntryFilters;
  tools: string[];
  counts?: Record<keyof typeof SCOPE_LABEL, number>;
  onChange: (patch: Partial<EntryFilters>, mode?: "push" | "replace") => void;
  onClear: () => void;
}) {
  const [text, setText] = useState(filters.q ?? "");
  const typing = useRef(false);
  const change = useRef(onChange);
  change.current = onChange;
  // The URL wins when it changes from outside (back button, shared link).
  useEffect(() => {
    if (!typing.current) setText((current) => (current.trim() === (filters.q ?? "") ? current : (filters.q ?? "")));
  }, [filters.q]);
  useEffect(() => {
    if (!typing.current) return;
    const timer = setTimeout(() => {
      typing.current = false;
      change.current({ q: text.trim() || undefined }, "replace");
    }, 250);
    return () => clearTimeout(timer);
  }, [text]);
  const active = Boolean(filters.scope || filters.action || filters.tool || filters.q || filters.finding);

  return (
    <form
      className={`card ${styles.toolbar}`}
      role="search"
      aria-label="Filter entries"
      onSubmit={(e) => e.preventDefault()}
    >
      <div className={styles.filterField}>
        <label htmlFor="filter-scope">Scope</label>
        <select
          id="filter-scope"
          value={filters.scope ?? ""}
          onChange={(e) => onChange({ scope: (e.target.value || undefined) as EntryFilters["scope"] })}
        >
          <option value="">All scopes</option>
          {(Object.keys(SCOPE_LABEL) as (keyof typeof SCOPE_LABEL)[]).map((s) => (
            <option key={s} value={s}>
              {SCOPE_LABEL[s]}
              {counts ? ` (${counts[s]})` : ""}
            </option>
          ))}
        </select>
      </div>
      <div className={styles.filterField}>
        <label htmlFor="filter-action">Action</label>
        <select
          id="filter-action"
          value={filters.action ?? ""}
          onChange={(e) => onChange({ action: (e.target.value || undefined) as EntryFilters["action"] })}
        >
          <option value="">Any action</option>
          <option value="allow">allow</option>
          <option value="ask">ask</option>
          <option value="deny">deny</option>
        </select>
      </div>
      <div className={styles.filterField}>
        <label htmlFor="filter-tool">Tool</label>
        <select
          id="filter-tool"
          value={filters.tool ?? ""}
          onChange={(e) => onChange({ tool: e.target.value || undefined })}
        >
          <option value="">Any tool</option>
          {[...new Set([...tools, ...(filters.tool ? [filters.tool] : [])])].map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </div>
      <div className={`${styles.filterField} ${styles.searchField}`}>
        <label htmlFor="filter-q">Search</label>
        <input
          id="filter-q"
          type="search"
          value={text}
          placeholder="rule text, path, file…"
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => {
            typing.current = true;
            setText(e.target.value);
          }}
        />
      </div>
      {active ? (
        <button type="button" onClick={onClear}>
          Clear filters
        </button>
      ) : null}
    </form>
  );
}
