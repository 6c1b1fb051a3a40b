"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { cardQuery } from "@/lib/cards-client/queries";
import { useCardEvents } from "@/lib/cards-client/use-card-events";
import { CardItem } from "./card-item";
import { Notices } from "./notices";
import { useNotices } from "./use-notices";

/** One card on its own page (what notifications open); still meaningful after it settles. */
export function CardDetail({ id, me }: { id: string; me: string }) {
  useCardEvents();
  const { data, error } = useQuery(cardQuery(id));
  const notices = useNotices();
  return (
    <>
      <p style={{ margin: "0 0 0.5rem" }}>
        <Link href="/cards">← All cards</Link>
      </p>
      <h1>
        {data ? `${data.card.tool} request${data.card.status === "pending" ? " · waiting for you" : ""}` : "Card"}
      </h1>
      <Notices items={notices.items} onDismiss={notices.dismiss} linkCards={false} />
      {error && !data ? (
        <p className="error" role="alert">
          Could not load this card: {error.message}
        </p>
      ) : null}
      {data ? <CardItem card={data.card} me={me} onNotice={notices.push} /> : null}
    </>
  );
}
