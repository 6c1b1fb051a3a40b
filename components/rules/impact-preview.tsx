"use client";
import { useEffect, useState } from "react";
import Link from "next/link";
import { entryImpact, type EntryView } from "@/lib/client/api";
import { HiddenTextWarning } from "@/components/ui/hidden-text";
import { revealDeep } from "@/lib/text/reveal";
import { FoldedText } from "@/components/cards/folded-text";
import styles from "./rules.module.css";

interface Impact {
  replayed: number;
  truncated: boolean;
  /** "truncated after N calls (work budget …)" when the replay stopped early. */
  note?: string | null;
  changed: {
    event: { seq: number; at: string; tool: string | null; input: Record<string, unknown> | null };
    before: { decision: string };
    after: { decision: string; reason: string };
  }[];
}

const callText = (input: Record<string, unknown> | null) => {
  if (!input) return "";
  const v = input.command ?? input.file_path ?? input.path ?? input.url ?? input.specifier;
  return typeof v === "string" ? v : JSON.stringify(input);
};

/** One replayed call whose decision would change. Its text is the agent's: hidden characters are revealed. */
function ChangedCall({ change }: { change: Impact["changed"][number] }) {
  const { value: event, hidden } = revealDeep(change.event);
  return (
    <li data-testid="impact-call">
      <code>{event.tool}</code> <HiddenTextWarning hidden={hidden} />{" "}
      <span className="muted">
        {change.before.decision} → <strong>{change.after.decision}</strong>
      </span>{" "}
      <Link href={`/audit?q=${encodeURIComponent(callText(change.event.input))}`} className="muted">
        #{change.event.seq}
      </Link>
      {/* Long commands fold as they do on cards: head and tail, the middle one tap away. */}
      <FoldedText text={callText(event.input)} label={`Call #${change.event.seq}`} />
    </li>
  );
}

/**
 * "What would break?" before a revoke (`to` undefined) or a narrow: the calls of the last 30 days this
 * entry decided, replayed with the change, and the ones that would now ask or be denied.
 */
export function ImpactPreview({ workspace, entry, to }: { workspace: string; entry: EntryView; to?: string }) {
  const [state, setState] = useState<{ key: string; impact?: Impact; error?: string } | null>(null);
  const key = `${entry.id}\n${to ?? ""}`;
  useEffect(() => {
    const abort = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const ask = () => entryImpact<Impact>({ workspace, id: entry.id, ...(to ? { to } : {}) }, abort.signal);
        let res = await ask();
        // Previews are rate-limited per person: a busy answer says when to come back.
        for (let tries = 0; !res.ok && res.status === 429 && tries < 3 && !abort.signal.aborted; tries++) {
          const wait = Number((res.body as { retryAfter?: number }).retryAfter ?? 1);
          await new Promise((r) => setTimeout(r, Math.min(10, Math.max(1, wait)) * 1000));
          if (abort.signal.aborted) return;
          res = await ask();
        }
        setState(res.ok ? { key, impact: res.data } : { key, error: res.error });
      } catch {
        // Aborted: a newer SPEC owns the preview.
      }
    }, 250);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [workspace, entry.id, to, key]);

  const shown = state?.key === key ? state : null;
  return (
    <section className={styles.impact} data-testid="impact-preview" aria-live="polite" aria-label="Impact preview">
      <div className={styles.hint}>Impact on the last 30 days</div>
      {!shown ? (
        <span className="muted">Replaying logged calls…</span>
      ) : shown.error ? (
        <span className="error">{shown.error}</span>
      ) : shown.impact!.replayed === 0 ? (
        <span data-testid="impact-summary">No logged calls in the last 30 days were decided by this entry.</span>
      ) : (
        <>
          <span data-testid="impact-summary">
            Replayed {shown.impact!.replayed}
            {shown.impact!.truncated ? "+" : ""} logged call{shown.impact!.replayed === 1 ? "" : "s"}:{" "}
            {shown.impact!.changed.length === 0 ? (
              "none would change."
            ) : (
              <strong>
                {shown.impact!.changed.length} would now{" "}
                {[...new Set(shown.impact!.changed.map((c) => c.after.decision))]
                  .map((d) => (d === "deny" ? "be denied" : d))
                  .join(" or ")}
                .
              </strong>
            )}
          </span>
          {shown.impact!.note ? (
            <span className="muted" data-testid="impact-truncated">
              {" "}
              The preview was {shown.impact!.note}: older calls were not replayed.
            </span>
          ) : null}
          {shown.impact!.changed.length ? (
            <ul className={styles.impactList}>
              {shown.impact!.changed.slice(0, 8).map((c) => (
                <ChangedCall key={c.event.seq} change={c} />
              ))}
              {shown.impact!.changed.length > 8 ? (
                <li className="muted">and {shown.impact!.changed.length - 8} more</li>
              ) : null}
            </ul>
          ) : null}
        </>
      )}
    </section>
  );
}
