import "server-only";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { cards, sessionHolds, workspaces } from "@/db/schema";
import { seesWorkspace } from "@/lib/auth/access";
import type { Actor } from "@/lib/auth/actor";
import { NotFoundError } from "@/lib/errors";
import { toCardView, type CardView } from "./view";

/**
 * The raw row, for a caller: only a card in a workspace the actor may see is found (an agent sees its own
 * workspace, a person their workspaces); others look absent (404), so nobody answers a card they cannot see.
 */
export async function getCardRow(db: DbOrTx, { actor, cardId }: { actor: Actor; cardId: string }) {
  const row = await getCardRowUnchecked(db, cardId);
  if (!seesWorkspace(actor, row.workspaceId)) throw new NotFoundError(`no card ${cardId}`);
  return row;
}

/** The card as the cockpit shows it, for a caller who may see its workspace (404 otherwise, as `getCardRow`). */
export async function getCard(db: DbOrTx, { actor, cardId }: { actor: Actor; cardId: string }): Promise<CardView> {
  return cardView(db, await getCardRow(db, { actor, cardId }));
}

/**
 * The system's read of a card row, with no caller to check: for the cockpit's own work (notification delivery, a
 * notification action whose token was verified, a verb re-reading the card it already checked). Never hand its
 * result to a caller who was not checked. 404 when there is no such card.
 */
export async function getCardRowUnchecked(db: DbOrTx, cardId: string) {
  const [row] = await db.select().from(cards).where(eq(cards.id, cardId));
  if (!row) throw new NotFoundError(`no card ${cardId}`);
  return row;
}

/** The system's read of a card's view (as `getCardRowUnchecked`: no caller, no check). */
export async function getCardUnchecked(db: DbOrTx, cardId: string): Promise<CardView> {
  return cardView(db, await getCardRowUnchecked(db, cardId));
}

async function cardView(db: DbOrTx, row: typeof cards.$inferSelect): Promise<CardView> {
  const [workspace] = await db.select().from(workspaces).where(eq(workspaces.id, row.workspaceId));
  const [hold] = await db
    .select()
    .from(sessionHolds)
    .where(and(eq(sessionHolds.workspaceId, row.workspaceId), eq(sessionHolds.rootSessionId, row.rootSessionId)));
  return toCardView(row, workspace!, hold ?? null);
}
