"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CardView } from "@/lib/cards/view";
import { AnswerError, answerCard, type Outcome, type Remember } from "@/lib/client/api";
import { conflictText, describeSettlement, formatTime } from "./format";
import { cardKeys } from "./queries";
import { humanizeTimes } from "./warnings";

export interface AnswerNotice {
  tone: "ok" | "error" | "warn";
  text: string;
  cardId: string;
}

export interface AnswerVariables {
  outcome: Outcome;
  remember: Remember;
  message?: string;
  confirmToolWide?: boolean;
}

/** Answers one card; on success it leaves the pending list at once, on 409 the card shows who settled it. */
export function useAnswerCard(card: CardView, { me, onNotice }: { me: string; onNotice: (n: AnswerNotice) => void }) {
  const client = useQueryClient();
  const store = (next: CardView) => {
    client.setQueryData(cardKeys.one(next.id), { card: next });
    if (next.status !== "pending")
      client.setQueryData(
        cardKeys.list("pending"),
        (old: { cards: CardView[] } | undefined) => old && { cards: old.cards.filter((c) => c.id !== next.id) },
      );
  };
  return useMutation({
    mutationFn: (v: AnswerVariables) => answerCard(card.id, { ...v, hash: card.hash }),
    onSuccess: (result) => {
      store(result.card);
      onNotice({ tone: "ok", text: describeSettlement(result.card, { me }), cardId: card.id });
      if (result.ruleNotSaved)
        onNotice({ tone: "warn", text: `The rule was not saved: ${result.ruleNotSaved}`, cardId: card.id });
    },
    onError: (error) => {
      if (error instanceof AnswerError && error.card) store(error.card);
      const text =
        error instanceof AnswerError && error.status === 409
          ? conflictText(error.message, error.card, { me })
          : `Answer failed: ${humanizeTimes(error.message, (iso) => formatTime(iso))}`;
      onNotice({ tone: "error", text, cardId: card.id });
    },
    onSettled: () => client.invalidateQueries({ queryKey: cardKeys.all }),
  });
}
