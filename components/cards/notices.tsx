"use client";
import Link from "next/link";
import type { AnswerNotice } from "@/lib/cards-client/use-answer";
import styles from "./cards.module.css";

export type ShownNotice = AnswerNotice & { key: number };

/** Confirmations and refusals after answering, newest first, so a tap always gets feedback. */
export function Notices({
  items,
  onDismiss,
  linkCards = true,
}: {
  items: ShownNotice[];
  onDismiss: (key: number) => void;
  linkCards?: boolean;
}) {
  if (items.length === 0) return null;
  return (
    <div className={styles.notices}>
      {items.map((n) => (
        <div
          key={n.key}
          className={`${n.tone === "ok" ? "notice" : n.tone === "warn" ? "warning" : "error"} ${styles.notice}`}
          role={n.tone === "ok" ? "status" : "alert"}
          data-testid="answer-notice"
        >
          <span suppressHydrationWarning>
            {n.tone === "ok" ? "✓ " : ""}
            {n.text}
            {linkCards ? (
              <>
                {" · "}
                <Link href={`/cards/${n.cardId}`}>view card</Link>
              </>
            ) : null}
          </span>
          <button type="button" aria-label="Dismiss" onClick={() => onDismiss(n.key)}>
            ✕
          </button>
        </div>
      ))}
    </div>
  );
}
