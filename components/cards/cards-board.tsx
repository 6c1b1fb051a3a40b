"use client";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { groupByRootSession, shortSessionId } from "@/lib/cards-client/group";
import { pendingCardsQuery, settledCardsQuery } from "@/lib/cards-client/queries";
import { shortcutFor } from "@/lib/cards-client/shortcuts";
import { useCardEvents } from "@/lib/cards-client/use-card-events";
import type { CardActions } from "./answer-panel";
import { CardItem } from "./card-item";
import styles from "./cards.module.css";
import { EmptyState } from "./empty-state";
import { Notices } from "./notices";
import { SettledList } from "./settled-list";
import { useNotices } from "./use-notices";

/** The pending queue grouped by root session, live, with keyboard shortcuts for the head card. */
export function CardsBoard({ me }: { me: string }) {
  useCardEvents();
  const pending = useQuery(pendingCardsQuery());
  const settled = useQuery(settledCardsQuery());
  const notices = useNotices();
  const groups = groupByRootSession(pending.data?.cards ?? []);
  const flat = groups.flatMap((g) => g.cards);
  const [headId, setHeadId] = useState<string | null>(null);
  // When the head card leaves the queue, the oldest remaining card becomes the head.
  const headIndex = Math.max(
    0,
    flat.findIndex((c) => c.id === headId),
  );
  const head = flat[headIndex];
  const actions = useRef<CardActions | null>(null);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const action = shortcutFor(e);
      if (!action || !head) return;
      e.preventDefault();
      if (action === "next" || action === "previous") {
        const target = flat[Math.min(flat.length - 1, Math.max(0, headIndex + (action === "next" ? 1 : -1)))];
        if (!target) return;
        setHeadId(target.id);
        document
          .querySelector(`[data-card-id="${target.id}"]`)
          ?.scrollIntoView({ block: "nearest", behavior: "smooth" });
        return;
      }
      actions.current?.[action]();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [flat, head, headIndex]);

  return (
    <>
      <h1>
        Cards{" "}
        {flat.length > 0 ? (
          <span className="muted" style={{ fontWeight: 400 }}>
            · {flat.length} pending
          </span>
        ) : null}
      </h1>
      {flat.length > 0 ? (
        <p className={styles.help}>
          Keys for the highlighted card: <kbd>a</kbd> allow once · <kbd>d</kbd> deny · <kbd>s</kbd> allow for session ·{" "}
          <kbd>Shift</kbd>+<kbd>A</kbd> always allow · <kbd>j</kbd>/<kbd>k</kbd> next/previous
        </p>
      ) : null}
      <Notices items={notices.items} onDismiss={notices.dismiss} />
      {pending.error ? (
        <p className="error" role="alert">
          Could not load the pending cards: {pending.error.message}.{" "}
          <button onClick={() => pending.refetch()}>Retry</button>
        </p>
      ) : null}
      {pending.data && groups.length === 0 ? <EmptyState /> : null}
      {groups.map((group) => (
        <section
          key={group.key}
          className={styles.group}
          aria-label={`Session ${shortSessionId(group.rootSessionId)} in ${group.workspace.name}`}
          data-testid="session-group"
        >
          <h2 className={styles.groupHeader}>
            <strong>{group.workspace.name}</strong>
            <span className="muted">{group.agent}</span>
            <span className="mono muted" title={group.rootSessionId}>
              session {shortSessionId(group.rootSessionId)}
            </span>
            <span className={styles.count} aria-label={`${group.cards.length} waiting`}>
              {group.cards.length}
            </span>
          </h2>
          {group.cards.map((card) => (
            <CardItem
              key={card.id}
              card={card}
              me={me}
              onNotice={notices.push}
              head={card.id === head?.id}
              actionsRef={card.id === head?.id ? actions : undefined}
              permalink
            />
          ))}
        </section>
      ))}
      <SettledList cards={settled.data?.cards ?? []} me={me} />
    </>
  );
}
