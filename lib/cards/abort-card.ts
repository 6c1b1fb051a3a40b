import type { Db } from "@/db/client";
import { actorLabel, type Actor } from "@/lib/auth/actor";
import { publishCardChange } from "./bus";
import { getCardRow } from "./get-card";
import { settleOnce } from "./settle-common";

export const ABORT_MESSAGE = "answered elsewhere";

/**
 * The agent side gave up (hook process ended, HTTP hook connection closed, explicit DELETE) or the
 * terminal answered first: the card settles `aborted`, grants nothing and leaves pending lists.
 * Returns false when the card was already settled.
 */
export async function abortCard({
  db,
  actor,
  cardId,
  why = ABORT_MESSAGE,
  now = new Date(),
}: {
  db: Db;
  actor: Actor;
  cardId: string;
  why?: string;
  now?: Date;
}): Promise<boolean> {
  const card = await getCardRow(db, { actor, cardId });
  if (card.status !== "pending") return false;
  const row = await db.transaction((tx) =>
    settleOnce(tx, {
      card,
      status: "aborted",
      by: actorLabel(actor),
      via: "abort",
      settlement: { outcome: "deny", remember: "once", message: why, source: "abort" },
      event: "aborted",
      now,
      human: false,
    }),
  );
  if (row) publishCardChange({ type: "aborted", cardId, workspaceId: card.workspaceId, status: "aborted" });
  return Boolean(row);
}
