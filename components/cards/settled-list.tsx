"use client";
import Link from "next/link";
import type { CardView } from "@/lib/cards/view";
import { describeSettlement, statusTone } from "@/lib/cards-client/format";
import { cardSubject } from "@/lib/cards-client/subject";
import styles from "./cards.module.css";

/** Recently settled cards, newest first, each linking to its page. */
export function SettledList({ cards, me }: { cards: CardView[]; me: string }) {
  if (cards.length === 0) return null;
  return (
    <section aria-labelledby="settled-heading">
      <h2 id="settled-heading">Recently settled</h2>
      <ul className={styles.settled}>
        {cards.map((card) => {
          const tone = statusTone(card.status);
          return (
            <li key={card.id} data-testid="settled-card">
              <Link href={`/cards/${card.id}`}>
                <span className={`tag ${tone === "muted" ? "" : tone}`}>{card.status}</span>{" "}
                <strong>{card.tool}</strong>{" "}
                <span className="muted" style={{ fontSize: "0.85rem" }} suppressHydrationWarning>
                  {describeSettlement(card, { me })}
                </span>
                <div className={styles.line}>{cardSubject(card).text}</div>
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
