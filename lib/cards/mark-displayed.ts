import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { cards } from "@/db/schema";
import { actorLabel, type Actor } from "@/lib/auth/actor";
import { publishCardChange } from "./bus";
import { recordCardEvent } from "./events";
import { getCardRow } from "./get-card";

/** Records the first time a person was shown the card; later calls change nothing. Returns whether this call recorded it. */
export async function markDisplayed({
  db,
  actor,
  cardId,
  client = "web",
  now = new Date(),
}: {
  db: Db;
  actor: Actor;
  cardId: string;
  client?: string;
  now?: Date;
}): Promise<boolean> {
  const card = await getCardRow(db, { actor, cardId });
  const recorded = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(cards)
      .set({ displayedAt: now })
      .where(and(eq(cards.id, cardId), isNull(cards.displayedAt)))
      .returning({ id: cards.id });
    if (!row) return false;
    await recordCardEvent(tx, {
      cardId,
      workspaceId: card.workspaceId,
      type: "displayed",
      call: { tool: card.tool, input: card.input },
      actor: actorLabel(actor),
      client,
    });
    return true;
  });
  if (recorded) publishCardChange({ type: "displayed", cardId, workspaceId: card.workspaceId, status: card.status });
  return recorded;
}
