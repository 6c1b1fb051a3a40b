import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { cards, sessionHolds, workspaces } from "@/db/schema";
import type { Actor } from "@/lib/auth/actor";
import { NotFoundError } from "@/lib/errors";
import { toCardView, type CardView } from "./view";

/** The raw row; an agent only sees its own workspace's cards (others look absent). */
export async function getCardRow(db: DbOrTx, { actor, cardId }: { actor?: Actor; cardId: string }) {
  const [row] = await db.select().from(cards).where(eq(cards.id, cardId));
  if (!row || (actor?.kind === "agent" && actor.workspaceId !== row.workspaceId))
    throw new NotFoundError(`no card ${cardId}`);
  return row;
}

export async function getCard(db: DbOrTx, { actor, cardId }: { actor?: Actor; cardId: string }): Promise<CardView> {
  const row = await getCardRow(db, { actor, cardId });
  const [workspace] = await db.select().from(workspaces).where(eq(workspaces.id, row.workspaceId));
  const [hold] = await db
    .select()
    .from(sessionHolds)
    .where(and(eq(sessionHolds.workspaceId, row.workspaceId), eq(sessionHolds.rootSessionId, row.rootSessionId)));
  return toCardView(row, workspace!, hold ?? null);
}
