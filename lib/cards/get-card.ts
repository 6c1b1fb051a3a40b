import "server-only";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { cards, sessionHolds, workspaces } from "@/db/schema";
import { seesWorkspace } from "@/lib/auth/access";
import type { Actor } from "@/lib/auth/actor";
import { NotFoundError } from "@/lib/errors";
import { toCardView, type CardView } from "./view";

/**
 * The raw row. With an actor, only a card in a workspace the actor may see is found: an agent sees its
 * own workspace, a person their workspaces; others look absent (404), so nobody answers a card they cannot see.
 */
export async function getCardRow(db: DbOrTx, { actor, cardId }: { actor?: Actor; cardId: string }) {
  const [row] = await db.select().from(cards).where(eq(cards.id, cardId));
  if (!row || (actor && !seesWorkspace(actor, row.workspaceId))) throw new NotFoundError(`no card ${cardId}`);
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
