import type { Db } from "@/db/client";
import type { CardSettlement, CardStatus } from "@/db/schema";
import type { Actor } from "@/lib/auth/actor";
import { onShutdown, subscribeCardChanges } from "./bus";
import { getCardRow } from "./get-card";

export const MAX_WAIT_SECONDS = 600;

export interface CardOutcome {
  id: string;
  status: CardStatus;
  settlement: (CardSettlement & { by: string | null; via: string | null; at: string | null }) | null;
}

async function outcomeOf(db: Db, actor: Actor, cardId: string): Promise<CardOutcome> {
  const row = await getCardRow(db, { actor, cardId });
  return {
    id: row.id,
    status: row.status,
    settlement: row.settlement
      ? { ...row.settlement, by: row.settledBy, via: row.settledVia, at: row.settledAt?.toISOString() ?? null }
      : null,
  };
}

/**
 * Long-poll helper: resolves as soon as the card leaves `pending`, after `waitSeconds`, or when
 * `signal` aborts (the caller went away; nothing happens to the card). Woken by the card bus, with
 * a slow database poll as a safety net for changes made by another process.
 */
export async function waitForSettlement({
  db,
  actor,
  cardId,
  waitSeconds,
  signal,
  pollMs = 2000,
}: {
  db: Db;
  actor: Actor;
  cardId: string;
  waitSeconds: number;
  signal?: AbortSignal;
  pollMs?: number;
}): Promise<CardOutcome> {
  const first = await outcomeOf(db, actor, cardId);
  if (first.status !== "pending" || waitSeconds <= 0 || signal?.aborted) return first;
  return new Promise<CardOutcome>((resolve, reject) => {
    let done = false;
    let checking = false;
    const finish = (value: CardOutcome | null, error?: unknown) => {
      if (done) return;
      done = true;
      unsubscribe();
      stopShutdown();
      clearTimeout(deadline);
      clearInterval(poll);
      signal?.removeEventListener("abort", onAbort);
      if (error) reject(error);
      else if (value) resolve(value);
      else outcomeOf(db, actor, cardId).then(resolve, reject);
    };
    const check = async () => {
      if (done || checking) return;
      checking = true;
      try {
        const now = await outcomeOf(db, actor, cardId);
        if (now.status !== "pending") finish(now);
      } catch (error) {
        finish(null, error);
      } finally {
        checking = false;
      }
    };
    const unsubscribe = subscribeCardChanges((change) => {
      if (change.cardId === cardId && change.status !== "pending") void check();
    });
    const onAbort = () => finish(first);
    // A stopping server answers "still pending" so the client reconnects to the next one.
    const stopShutdown = onShutdown(() => finish(null));
    signal?.addEventListener("abort", onAbort);
    const deadline = setTimeout(() => finish(null), Math.min(waitSeconds, MAX_WAIT_SECONDS) * 1000);
    const poll = setInterval(() => void check(), pollMs);
    // A settlement that landed between the first read and the subscription.
    void check();
  });
}
