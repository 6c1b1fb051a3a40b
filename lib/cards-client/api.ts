import { startAuthentication } from "@simplewebauthn/browser";
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
}

export interface AnswerResult {
  card: CardView;
  ruleNotSaved?: string;
}

/**
 * Every answer carries the card's hash: the server refuses it if the card changed since it was shown.
 * In a workspace whose approvals need a passkey, the server says so (403 `needsPasskey`): the browser
 * then signs a challenge derived from this card, outcome and scope with the person's passkey and retries.
 */
export async function answerCard(id: string, input: AnswerInput): Promise<AnswerResult> {
  const url = `/api/v1/cards/${encodeURIComponent(id)}/answer`;
  const payload = { ...input, message: input.message?.trim() || undefined };
  const post = (extra: object = {}) =>
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...payload, ...extra }),
    });
  const first = await post();
  if (first.status === 403) {
    const body = (await first
      .clone()
      .json()
      .catch(() => ({}))) as { details?: { needsPasskey?: boolean } };
    if (body.details?.needsPasskey) {
      const passkey = await signWithPasskey(`/api/v1/cards/${encodeURIComponent(id)}/passkey-options`, {
        outcome: input.outcome,
        remember: input.remember,
      });
      return readJson(await post({ passkey }));
    }
  }
  return readJson(first);
}

/** Fetches assertion options from `url` and signs them with a passkey (the browser's WebAuthn prompt). */
export async function signWithPasskey(url: string, body: object = {}): Promise<unknown> {
  const options = await readJson<Parameters<typeof startAuthentication>[0]["optionsJSON"]>(
    await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  );
  return startAuthentication({ optionsJSON: options });
}

const displayed = new Set<string>();

/** Tells the server a person has seen the card (its "displayed" lifecycle event); once per card per page load. */
export function markDisplayed(id: string): void {
  if (displayed.has(id)) return;
  displayed.add(id);
  fetch(`/api/v1/cards/${encodeURIComponent(id)}/displayed`, { method: "POST" }).catch(() => displayed.delete(id));
}
