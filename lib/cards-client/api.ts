import type { CardView } from "@/lib/cards/view";

export type Outcome = "allow" | "deny";
export type Remember = "once" | "session" | "workspace";

/** An answer the server refused; a 409 carries the card as it now is. */
export class AnswerError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly card: CardView | null,
  ) {
    super(message);
  }
}

async function readJson<T>(res: Response): Promise<T> {
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { error?: string; card?: CardView };
    throw new AnswerError(body.error ?? `request failed (${res.status})`, res.status, body.card ?? null);
  }
  return (await res.json()) as T;
}

export async function fetchCards(status: "pending" | "settled" | "all", limit = 100): Promise<{ cards: CardView[] }> {
  return readJson(await fetch(`/api/v1/cards?status=${status}&limit=${limit}`, { cache: "no-store" }));
}

export async function fetchPendingCount(): Promise<{ pending: number }> {
  return readJson(await fetch("/api/v1/cards/count", { cache: "no-store" }));
}

export async function fetchCard(id: string): Promise<{ card: CardView }> {
  return readJson(await fetch(`/api/v1/cards/${encodeURIComponent(id)}`, { cache: "no-store" }));
}

export interface AnswerInput {
  outcome: Outcome;
  remember: Remember;
  message?: string;
  hash: string;
  confirmToolWide?: boolean;
}

export interface AnswerResult {
  card: CardView;
  ruleNotSaved?: string;
}

/** Every answer carries the card's hash: the server refuses it if the card changed since it was shown. */
export async function answerCard(id: string, input: AnswerInput): Promise<AnswerResult> {
  const body = JSON.stringify({ ...input, message: input.message?.trim() || undefined });
  return readJson(
    await fetch(`/api/v1/cards/${encodeURIComponent(id)}/answer`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    }),
  );
}

const displayed = new Set<string>();

/** Tells the server a person has seen the card (its "displayed" lifecycle event); once per card per page load. */
export function markDisplayed(id: string): void {
  if (displayed.has(id)) return;
  displayed.add(id);
  fetch(`/api/v1/cards/${encodeURIComponent(id)}/displayed`, { method: "POST" }).catch(() => displayed.delete(id));
}
