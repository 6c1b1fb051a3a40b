"use client";
import { useEffect, useState } from "react";
import { fetchAuditHistogram } from "@/lib/client/api";
import styles from "./audit.module.css";

interface Histogram {
  from: string;
  to: string;
  width: number;
  buckets: { start: string; counts: Record<string, number> }[];
}

const OUTCOMES = ["allow", "ask", "deny"] as const;
const COLORS: Record<string, string> = { allow: "var(--ok)", ask: "var(--warn)", deny: "var(--danger)" };

const widthLabel = (s: number) =>
  s % 86400 === 0 ? `${s / 86400} d` : s % 3600 === 0 ? `${s / 3600} h` : `${Math.round(s / 60)} min`;

/** Decisions over time by outcome: stacked SVG bars from /api/v1/audit/histogram (no chart library). */
export function AuditChart({ query }: { query: string }) {
  const [data, setData] = useState<Histogram | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    fetchAuditHistogram<Histogram>(query, 48, abort.signal)
      .then((res) => {
        if (!res.ok) throw new Error(res.error);
        setData(res.data);
        setError(null);
      })
      .catch((e: Error) => {
        if (e.name !== "AbortError") setError(e.message);
      });
    return () => abort.abort();
  }, [query]);

  if (error) return <p className="muted">Chart unavailable: {error}</p>;
  if (!data) return <div className={styles.chart} aria-busy="true" />;
  const totals = data.buckets.map((b) => OUTCOMES.reduce((n, o) => n + (b.counts[o] ?? 0), 0));
  const max = Math.max(1, ...totals);
  const sum = (o: string) => data.buckets.reduce((n, b) => n + (b.counts[o] ?? 0), 0);
  const n = data.buckets.length;
  return (
    <figure className={styles.chartBox} data-testid="audit-chart">
      <svg
        className={styles.chart}
        viewBox={`0 0 ${n * 10} 100`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`Decisions per ${widthLabel(data.width)}: ${OUTCOMES.map((o) => `${sum(o)} ${o}`).join(", ")}`}
      >
        {data.buckets.map((b, i) => {
          let y = 100;
          return (
            <g key={b.start}>
              <title>
                {new Date(b.start).toLocaleString()}: {OUTCOMES.map((o) => `${b.counts[o] ?? 0} ${o}`).join(", ")}
              </title>
              {OUTCOMES.map((o) => {
                const h = ((b.counts[o] ?? 0) / max) * 100;
                y -= h;
                return h > 0 ? <rect key={o} x={i * 10 + 1} y={y} width={8} height={h} fill={COLORS[o]} /> : null;
              })}
            </g>
          );
        })}
      </svg>
      <figcaption className={styles.legend}>
        <span className="muted">
          {new Date(data.from).toLocaleDateString()} – {new Date(data.to).toLocaleDateString()}, per{" "}
          {widthLabel(data.width)}
        </span>
        {OUTCOMES.map((o) => (
          <span key={o}>
            <span className={styles.swatch} style={{ background: COLORS[o] }} /> {o} {sum(o)}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
