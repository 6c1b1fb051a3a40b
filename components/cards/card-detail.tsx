"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useCallback } from "react";
import { cardQuery, nextPendingCardQuery } from "@/lib/cards-client/queries";
import type { AnswerNotice } from "@/lib/cards-client/use-answer";
import { useCardEvents } from "@/lib/cards-client/use-card-events";
import { Alert } from "@/components/ui/alert";
import { Icon } from "@/components/ui/icon";
import { CardItem } from "./card-item";
import styles from "./cards.module.css";
import { AnswerNoticeView } from "./notices";
import { useNotices } from "./use-notices";

/** One card on its own page (what notifications open); still meaningful after it settles; leads to the next one. */
export function CardDetail({ id, me, canAnswer }: { id: string; me: string; canAnswer: boolean }) {
  useCardEvents();
  const { data, error } = useQuery(cardQuery(id));
  const nextCard = useQuery(nextPendingCardQuery(id));
  const notices = useNotices();
  const onNotice = useCallback(
    (n: AnswerNotice) => {
      notices.push(n);
      // Feedback where the tap happened: the notice takes focus and sits where the answer bar was.
      requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="answer-notice"]')?.focus());
    },
    [notices],
  );
  const notice = notices.items[0];
  const next = nextCard.data;
  const pending = data?.card.status === "pending";
  return (
    <>
      <nav className={styles.detailNav} aria-label="Cards">
        <Link href="/cards" className={styles.navLink}>
          <Icon name="arrowLeft" size={16} /> All cards
        </Link>
        {next ? (
          <Link href={`/cards/${next.id}`} className={styles.navLink} data-testid="next-pending">
            Next pending card <Icon name="arrowRight" size={16} />
          </Link>
        ) : null}
      </nav>
      <h1>{data ? `${data.card.tool} request${pending ? " · waiting for you" : ""}` : "Card"}</h1>
      {error && !data ? <Alert>Could not load this card: {error.message}</Alert> : null}
      {notice && !pending ? <AnswerNoticeView notice={notice} onDismiss={notices.dismiss} linkCard={false} /> : null}
      {data ? (
        <CardItem
          card={data.card}
          me={me}
          onNotice={onNotice}
          canAnswer={canAnswer}
          notice={
            notice && pending ? (
              <AnswerNoticeView notice={notice} onDismiss={notices.dismiss} linkCard={false} />
            ) : undefined
          }
        />
      ) : null}
    </>
  );
}
