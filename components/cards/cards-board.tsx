"use client";
import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import type { CardView } from "@/lib/cards/view";
import { agentLabel } from "@/lib/agents";
import { groupByRootSession } from "@/lib/cards-client/group";
import { pendingCardsQuery, settledCardsQuery } from "@/lib/cards-client/queries";
import { shortcutFor } from "@/lib/cards-client/shortcuts";
import type { AnswerNotice } from "@/lib/cards-client/use-answer";
import { useCardEvents } from "@/lib/cards-client/use-card-events";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { CardActions } from "./answer-panel";
import { CardItem } from "./card-item";
import styles from "./cards.module.css";
import { EmptyState } from "./empty-state";
import { AnswerNoticeView } from "./notices";
import { SettledList } from "./settled-list";
import { useNotices } from "./use-notices";

/**
 * The pending queue grouped by root session, live, with keyboard shortcuts for the head card. An answered card
 * leaves a notice where it was (what was answered, about which request); focus and scroll move to the next one.
 */
export function CardsBoard({ me, answerIn }: { me: string; answerIn: string[] | "all" }) {
  const canAnswer = (workspaceId: string) => answerIn === "all" || answerIn.includes(workspaceId);
  useCardEvents();
  const pending = useQuery(pendingCardsQuery());
  const settled = useQuery(settledCardsQuery());
  const notices = useNotices();
  const pendingCards = pending.data?.cards ?? [];
  const flat = groupByRootSession(pendingCards).flatMap((g) => g.cards);
  // Answered cards keep their place (as their notice) until dismissed.
  const answered = useRef(new Map<string, CardView>());
  for (const c of pendingCards) answered.current.set(c.id, c);
  const stubs = notices.items.flatMap((n) => {
    const c = answered.current.get(n.cardId);
    return c && !flat.some((p) => p.id === n.cardId) ? [c] : [];
  });
  const groups = groupByRootSession([...pendingCards, ...stubs]);
  const [headId, setHeadId] = useState<string | null>(null);
  // When the head card leaves the queue, the next one (else the one before) becomes the head.
  const headIndex = Math.max(
    0,
    flat.findIndex((c) => c.id === headId),
  );
  const head = flat[headIndex];
  const actions = useRef<CardActions | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);

  const onNotice = useCallback(
    (n: AnswerNotice) => {
      notices.push(n);
      if (n.tone === "error" && flat.some((c) => c.id === n.cardId)) return;
      const i = flat.findIndex((c) => c.id === n.cardId);
      const next = flat[i + 1] ?? flat[i - 1];
      if (next) setHeadId(next.id);
      setFocusId(next?.id ?? `notice:${n.cardId}`);
    },
    [flat, notices],
  );

  // After an answer: focus and scroll to the next pending card (or, when none is left, to the notice).
  useEffect(() => {
    if (!focusId) return;
    const el = focusId.startsWith("notice:")
      ? document.querySelector<HTMLElement>(`[data-testid="answer-notice"][data-card-id="${focusId.slice(7)}"]`)
      : document.querySelector<HTMLElement>(`[data-testid="card"][data-card-id="${focusId}"]`);
    if (!el) return;
    el.focus({ preventScroll: true });
    el.scrollIntoView({ block: "start", behavior: "smooth" });
    setFocusId(null);
  });

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
      <h1>Cards {flat.length > 0 ? <span className={`muted ${styles.plain}`}>· {flat.length} pending</span> : null}</h1>
      {flat.length > 0 ? (
        <p className={styles.help}>
          Keys for the highlighted card: <kbd>a</kbd> allow once · <kbd>d</kbd> deny · <kbd>s</kbd> allow for session ·{" "}
          <kbd>Shift</kbd>+<kbd>A</kbd> always allow · <kbd>j</kbd>/<kbd>k</kbd> next/previous
        </p>
      ) : null}
      {pending.error ? (
        <Alert action={<Button onClick={() => pending.refetch()}>Retry</Button>}>
          Could not load the pending cards: {pending.error.message}.
        </Alert>
      ) : null}
      {pending.data && groups.length === 0 ? <EmptyState /> : null}
      {groups.map((group) => {
        const waiting = group.cards.filter((c) => flat.some((p) => p.id === c.id)).length;
        return (
          <section
            key={group.key}
            className={styles.group}
            aria-label={`Session ${group.rootSessionId} in ${group.workspace.name}`}
            data-testid="session-group"
          >
            <h2 className={styles.groupHeader}>
              <strong>{group.workspace.name}</strong>
              <span className="muted">{agentLabel(group.agent)}</span>
              <span className={`mono muted ${styles.session}`} data-testid="session-name">
                session {group.rootSessionId}
              </span>
              {waiting ? <span className={styles.count}>{waiting} waiting</span> : null}
            </h2>
            {group.cards.map((card) => {
              const notice = notices.items.find((n) => n.cardId === card.id);
              if (!flat.some((p) => p.id === card.id))
                return notice ? <AnswerNoticeView key={card.id} notice={notice} onDismiss={notices.dismiss} /> : null;
              return (
                <CardItem
                  key={card.id}
                  card={card}
                  me={me}
                  onNotice={onNotice}
                  head={card.id === head?.id}
                  actionsRef={card.id === head?.id ? actions : undefined}
                  canAnswer={canAnswer(card.workspace.id)}
                  permalink
                  notice={
                    notice ? (
                      <AnswerNoticeView notice={notice} onDismiss={notices.dismiss} linkCard={false} />
                    ) : undefined
                  }
                />
              );
            })}
          </section>
        );
      })}
      <SettledList cards={settled.data?.cards ?? []} me={me} />
    </>
  );
}
