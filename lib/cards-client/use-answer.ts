"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CardView } from "@/lib/cards/view";
import { AnswerError, answerCard, undoRemember, type Outcome, type Remember } from "@/lib/client/api";
import { conflictText, formatTime, settlementDetail, settlementTitle } from "./format";
import { cardKeys } from "./queries";
import { cardSubject } from "./subject";
import { humanizeTimes } from "./warnings";

/** What the person sees where they tapped: what was answered, about which request, and what was saved where. */
export interface AnswerNotice {
  tone: "ok" | "error" | "warn";
  /** "Allowed once", "Not answered", "Answer failed"… */
  title: string;
  /** The request it is about, on one line ("npm install"): notices never stand without it. */
  about: string;
  /** "by you at 14:02 via web", or the reason an answer was refused. */
  detail: string;
  cardId: string;
  /** Rules a remembering answer stored, and where (Always allow offers Undo for a few minutes). */
  saved?: { rules: string[]; store: string | null; undone?: boolean };
  /** When the answer was given (ms): Undo is offered for `UNDO_WINDOW_MS` after. */
  at?: number;
}

export const UNDO_WINDOW_MS = 5 * 60_000;

export interface AnswerVariables {
  outcome: Outcome;
  remember: Remember;
  message?: string;
  confirmToolWide?: boolean;
  /** Which remember choice (`remember.options[].level`); default the narrowest. */
  choice?: string;
}

/** "npm install" — the first line of the card's subject, shortened, for notices. */
export function aboutCard(card: Pick<CardView, "tool" | "input">): string {
  const text = cardSubject(card).text.split("\n")[0]!.trim();
  const line = text.length > 80 ? `${text.slice(0, 79)}…` : text;
  return line || card.tool;
}

/** Answers one card; on success it leaves the pending list at once, on 409 the card shows who settled it. */
export function useAnswerCard(card: CardView, { me, onNotice }: { me: string; onNotice: (n: AnswerNotice) => void }) {
  const client = useQueryClient();
  const about = aboutCard(card);
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
      const saved = result.card.settlement?.saved;
      const detail = settlementDetail(result.card, { me });
      onNotice({
        tone: result.ruleNotSaved ? "warn" : "ok",
        title: settlementTitle(result.card),
        about,
        detail: result.ruleNotSaved ? `${detail} · ${result.ruleNotSaved}` : detail,
        cardId: card.id,
        at: Date.now(),
        ...(saved && saved.rules.length ? { saved: { rules: saved.rules, store: saved.store } } : {}),
      });
    },
    onError: (error) => {
      if (error instanceof AnswerError && error.card) store(error.card);
      const conflict = error instanceof AnswerError && error.status === 409;
      onNotice({
        tone: "error",
        title: conflict ? "Not answered" : "Answer failed",
        about,
        detail: conflict
          ? conflictText(error.message, error.card, { me }).replace(/^Not answered: /, "")
          : humanizeTimes(error.message, (iso) => formatTime(iso)),
        cardId: card.id,
      });
    },
    onSettled: () => client.invalidateQueries({ queryKey: cardKeys.all }),
  });
}

/** Undo of an Always allow: the rules it wrote are revoked (audited) and the notice says so. */
export function useUndoRemember(cardId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => undoRemember(cardId),
    onSuccess: (result) => client.setQueryData(cardKeys.one(cardId), { card: result.card }),
    onSettled: () => client.invalidateQueries({ queryKey: cardKeys.all }),
  });
}
