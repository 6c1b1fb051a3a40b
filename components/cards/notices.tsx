"use client";
import Link from "next/link";
import { useEffect, useState } from "react";
import { UNDO_WINDOW_MS, useUndoRemember, type AnswerNotice } from "@/lib/cards-client/use-answer";
import { Icon } from "@/components/ui/icon";
import styles from "./cards.module.css";

export type ShownNotice = AnswerNotice & { key: number };

/**
 * What happened to one answered card, shown where the card was: "Allowed once: `npm install` · by you at 14:02".
 * After Always allow it names the rule and the file it went to, with Undo for a few minutes.
 */
export function AnswerNoticeView({
  notice: n,
  onDismiss,
  linkCard = true,
}: {
  notice: ShownNotice;
  onDismiss: (key: number) => void;
  linkCard?: boolean;
}) {
  const tone = n.tone === "ok" ? "notice" : n.tone === "warn" ? "warning" : "error";
  return (
    <div
      className={`${tone} ${styles.notice}`}
      role={n.tone === "ok" ? "status" : "alert"}
      data-testid="answer-notice"
      data-card-id={n.cardId}
      tabIndex={-1}
    >
      <Icon name={n.tone === "ok" ? "check" : "alert"} />
      <div className={styles.noticeBody}>
        <p>
          <strong>{n.title}</strong>: <code className={styles.about}>{n.about}</code>
          <span suppressHydrationWarning>{n.detail ? ` · ${n.detail}` : ""}</span>
          {linkCard ? (
            <>
              {" · "}
              <Link href={`/cards/${n.cardId}`}>view card</Link>
            </>
          ) : null}
        </p>
        {n.saved ? <Saved notice={n} /> : null}
      </div>
      <button
        type="button"
        className={styles.noticeClose}
        aria-label={`Dismiss the notice about ${n.about}`}
        onClick={() => onDismiss(n.key)}
      >
        <Icon name="x" />
      </button>
    </div>
  );
}

function Saved({ notice: n }: { notice: ShownNotice }) {
  const saved = n.saved!;
  const undo = useUndoRemember(n.cardId);
  const [now, setNow] = useState(() => Date.now());
  const open = !!saved.store && n.at !== undefined && now - n.at < UNDO_WINDOW_MS;
  useEffect(() => {
    if (!open) return;
    const t = setTimeout(() => setNow(Date.now()), Math.max(1000, (n.at ?? 0) + UNDO_WINDOW_MS - Date.now()));
    return () => clearTimeout(t);
  }, [open, n.at, now]);
  const rules = saved.rules.join(", ");
  if (undo.isSuccess)
    return (
      <p data-testid="undo-done">
        Undone: {undo.data.revoked.length ? <code>{undo.data.revoked.join(", ")}</code> : "nothing left"} removed from{" "}
        <code>{saved.store}</code>. This request stays allowed once.
      </p>
    );
  return (
    <p data-testid="saved-rule">
      Saved <code className={styles.wrap}>{rules}</code>{" "}
      {saved.store ? (
        <>
          to <code className={styles.wrap}>{saved.store}</code>.
        </>
      ) : (
        "for this session (in the cockpit)."
      )}{" "}
      {open ? (
        <button type="button" className={styles.undo} onClick={() => undo.mutate()} disabled={undo.isPending}>
          <Icon name="undo" size={16} /> {undo.isPending ? "Undoing…" : "Undo"}
        </button>
      ) : null}
      {undo.error ? <span role="alert"> Undo failed: {undo.error.message}</span> : null}
    </p>
  );
}
