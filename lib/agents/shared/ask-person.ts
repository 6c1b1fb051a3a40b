/**
 * The card round trip every connector makes when its agent asks a person: admit the card, wait for an answer, give
 * up (the card settles as aborted) when nobody answers in time. Never an allow by default.
 */
import type { CardOutcome, CardRequest, HookContext } from "../types";

/** What came back, in the terms every agent's hook output is built from. */
export type PersonAnswer =
  | { answer: "allow" }
  | { answer: "deny"; message: string | null; by?: string | null }
  /** No answer (timeout, the agent ended the hook, the card was aborted or refused): the agent's own prompt decides. */
  | { answer: "none" };

export async function askPerson(card: CardRequest, { port, waitSeconds, signal }: HookContext): Promise<PersonAnswer> {
  const admitted = await port.admit(card);
  if (admitted.status === "settled")
    return admitted.decision === "allow" ? { answer: "allow" } : { answer: "deny", message: admitted.reason };
  if (admitted.status === "refused") return { answer: "none" };
  const outcome = await port.wait(admitted.id, waitSeconds, signal);
  if (outcome.status === "pending") {
    // Nobody answered in time, or the agent stopped the hook (its terminal answered): retire the card.
    await port.abort(admitted.id).catch(() => undefined);
    return { answer: "none" };
  }
  return answerOf(outcome);
}

/** A settled card as an answer: only an allow settlement (by a person or a rule) allows. */
export function answerOf(outcome: CardOutcome): PersonAnswer {
  const s = outcome.settlement;
  if (outcome.status === "pending" || outcome.status === "aborted" || !s) return { answer: "none" };
  if (s.outcome === "allow" && (outcome.status === "allowed" || outcome.status === "coalesced"))
    return { answer: "allow" };
  return { answer: "deny", message: s.message, by: s.by ?? null };
}
