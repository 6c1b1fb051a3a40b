"use client";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { EXAMPLE_AGENT } from "@/lib/agents";
import { fetchAuditPage } from "@/lib/client/api";
import { revealHidden } from "@/lib/text/reveal";
import { AuditChart } from "./audit-chart";
import { AuditEventItem, type AuditEventView } from "./audit-event";
import styles from "./audit.module.css";

export const FILTER_KEYS = [
  "workspace",
  "type",
  "outcome",
  "source",
  "agent",
  "agentSession",
  "tool",
  "actor",
  "q",
  "from",
  "to",
  "timeOf",
] as const;
type FilterKey = (typeof FILTER_KEYS)[number];
type Filters = Partial<Record<FilterKey, string>>;

const SOURCES = ["config", "hook", "user_temporary", "user_permanent", "user_reject", "user_abort"];
const TYPE_GROUPS = ["card.*", "entry.*", "agent.*", "auth.*", "settings.*", "workspace.*", "webhook.*", "audit.*"];

/** The filters' query string (empty values left out), shared by the timeline, chart and exports. */
function filterQuery(f: Filters): string {
  const p = new URLSearchParams();
  for (const k of FILTER_KEYS) if (f[k]) p.set(k, f[k]!);
  return p.toString();
}

/** ISO time ⇄ the value of a datetime-local input (the browser's zone). */
const toLocalInput = (iso?: string) => {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const fromLocalInput = (v: string) => (v ? new Date(v).toISOString() : "");

export function AuditView({ workspaces }: { workspaces: { id: string; name: string; path: string }[] }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const filters = useMemo(() => {
    const f: Filters = {};
    for (const k of FILTER_KEYS) {
      const v = params.get(k);
      if (v) f[k] = v;
    }
    return f;
  }, [params]);
  const query = filterQuery(filters);

  const [events, setEvents] = useState<AuditEventView[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const generation = useRef(0);

  const load = useCallback(
    async (cursor: string | null) => {
      const gen = generation.current;
      setLoading(true);
      setError(null);
      try {
        const res = await fetchAuditPage<AuditEventView>(query, cursor);
        if (gen !== generation.current) return;
        if (!res.ok) throw new Error(res.error);
        const body = res.data;
        setEvents((old) => (cursor ? [...old, ...body.events] : body.events));
        setNext(body.next ?? null);
        setDone(!body.next);
      } catch (e) {
        if (gen === generation.current) setError((e as Error).message);
      } finally {
        if (gen === generation.current) setLoading(false);
      }
    },
    [query],
  );

  // A new filter set starts a new timeline.
  useEffect(() => {
    generation.current++;
    setEvents([]);
    setNext(null);
    setDone(false);
    void load(null);
  }, [load]);

  // Infinite scroll: the sentinel below the list asks for the next page when it comes into view.
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !next || loading) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) void load(next);
      },
      { rootMargin: "400px" },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [next, loading, load]);

  function apply(form: HTMLFormElement) {
    const data = new FormData(form);
    const f: Filters = {};
    for (const k of FILTER_KEYS) {
      const raw = String(data.get(k) ?? "").trim();
      const v = k === "from" || k === "to" ? fromLocalInput(raw) : raw;
      if (v) f[k] = v;
    }
    const qs = filterQuery(f);
    router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
  }

  const setFilter = (k: FilterKey, v: string) => {
    const f = { ...filters, [k]: v };
    const qs = filterQuery(f);
    router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
  };

  const wsName = (id: string | null) => {
    const name = workspaces.find((w) => w.id === id)?.name ?? id;
    return name === null ? null : revealHidden(name);
  };

  return (
    <div className={styles.view}>
      <form
        key={query}
        className={styles.filters}
        aria-label="Audit filters"
        onSubmit={(e) => {
          e.preventDefault();
          apply(e.currentTarget);
        }}
      >
        <div className="field">
          <label htmlFor="f-q">Search</label>
          <input id="f-q" name="q" type="search" defaultValue={filters.q ?? ""} placeholder="rm -rf build, a rule…" />
        </div>
        <div className="field">
          <label htmlFor="f-workspace">Workspace</label>
          <select id="f-workspace" name="workspace" defaultValue={filters.workspace ?? ""}>
            <option value="">All</option>
            {workspaces.map((w) => (
              <option key={w.id} value={w.id}>
                {revealHidden(w.name)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-outcome">Outcome</label>
          <select id="f-outcome" name="outcome" defaultValue={filters.outcome ?? ""}>
            <option value="">Any</option>
            <option value="allow">allow</option>
            <option value="deny">deny</option>
            <option value="ask">ask</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-source">Decision source</label>
          <select id="f-source" name="source" defaultValue={filters.source ?? ""}>
            <option value="">Any</option>
            {SOURCES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-type">Event type</label>
          <input id="f-type" name="type" list="f-type-groups" defaultValue={filters.type ?? ""} placeholder="card.*" />
          <datalist id="f-type-groups">
            {TYPE_GROUPS.map((t) => (
              <option key={t} value={t} />
            ))}
          </datalist>
        </div>
        <div className="field">
          <label htmlFor="f-agent">Agent</label>
          <input id="f-agent" name="agent" defaultValue={filters.agent ?? ""} placeholder={EXAMPLE_AGENT.id} />
        </div>
        <div className="field">
          <label htmlFor="f-session">Agent session</label>
          <input id="f-session" name="agentSession" defaultValue={filters.agentSession ?? ""} />
        </div>
        <div className="field">
          <label htmlFor="f-tool">Tool</label>
          <input id="f-tool" name="tool" defaultValue={filters.tool ?? ""} placeholder="Bash" />
        </div>
        <div className="field">
          <label htmlFor="f-actor">Actor</label>
          <input id="f-actor" name="actor" defaultValue={filters.actor ?? ""} placeholder="a name, local-cli" />
        </div>
        <div className="field">
          <label htmlFor="f-from">From</label>
          <input id="f-from" name="from" type="datetime-local" defaultValue={toLocalInput(filters.from)} />
        </div>
        <div className="field">
          <label htmlFor="f-to">To</label>
          <input id="f-to" name="to" type="datetime-local" defaultValue={toLocalInput(filters.to)} />
        </div>
        <div className="field">
          <label htmlFor="f-time-of">Times are</label>
          <select id="f-time-of" name="timeOf" defaultValue={filters.timeOf ?? ""}>
            <option value="">when recorded</option>
            <option value="occurred">when it happened (imported logs)</option>
          </select>
        </div>
        <div className={styles.filterButtons}>
          <button type="submit" className="primary">
            Apply
          </button>
          {query ? (
            <button type="button" onClick={() => router.replace(pathname, { scroll: false })}>
              Clear
            </button>
          ) : null}
        </div>
      </form>

      <AuditChart query={query} />

      <div className={styles.toolbar}>
        <span className="muted" data-testid="audit-count">
          {events.length} event{events.length === 1 ? "" : "s"} shown{done ? "" : " (scroll for more)"}
        </span>
        <span className={styles.exports}>
          <a className="button" href={`/api/v1/audit/export?format=csv${query ? `&${query}` : ""}`} download>
            Export CSV
          </a>
          <a className="button" href={`/api/v1/audit/export?format=jsonl${query ? `&${query}` : ""}`} download>
            Export JSONL
          </a>
        </span>
      </div>

      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      <ol className={styles.timeline} aria-label="Audit events" data-testid="audit-timeline">
        {events.map((e) => (
          <AuditEventItem key={e.seq} event={e} workspaceName={wsName(e.workspace)} onFilter={setFilter} />
        ))}
      </ol>
      {!loading && !error && events.length === 0 ? (
        <p className="muted" data-testid="audit-empty">
          No events match these filters.
        </p>
      ) : null}
      <div ref={sentinel} aria-hidden="true" style={{ height: 1 }} />
      {loading ? <p className="muted">Loading…</p> : null}
      {done && events.length > 0 ? <p className="muted">The beginning of the log.</p> : null}
    </div>
  );
}
