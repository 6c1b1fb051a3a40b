import { and, asc, desc, eq, ne } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "@/db/client";
import { cards, sessionHolds, workspaces } from "@/db/schema";
import { toCardView, withFoldedInput, type CardView } from "./view";

export const ListCardsInput = z.object({
  status: z.enum(["pending", "settled", "all"]).default("pending"),
  workspace: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type ListCardsInput = z.infer<typeof ListCardsInput>;

/** Pending cards oldest first (queue order); settled and all newest first. Inputs are folded previews. */
export async function listCards(db: DbOrTx, input: ListCardsInput): Promise<CardView[]> {
  const filters = [
    input.status === "pending"
      ? eq(cards.status, "pending")
      : input.status === "settled"
        ? ne(cards.status, "pending")
        : undefined,
    input.workspace ? eq(cards.workspaceId, input.workspace) : undefined,
  ];
  const rows = await db
    .select({
      card: cards,
      workspace: { id: workspaces.id, name: workspaces.name, path: workspaces.path },
      hold: { deadlineAt: sessionHolds.deadlineAt },
    })
    .from(cards)
    .innerJoin(workspaces, eq(workspaces.id, cards.workspaceId))
    .leftJoin(
      sessionHolds,
      and(eq(sessionHolds.workspaceId, cards.workspaceId), eq(sessionHolds.rootSessionId, cards.rootSessionId)),
    )
    .where(and(...filters))
    .orderBy(input.status === "pending" ? asc(cards.createdAt) : desc(cards.createdAt), asc(cards.id))
    .limit(input.limit);
  return rows.map((r) => withFoldedInput(toCardView(r.card, r.workspace, r.hold)));
}
