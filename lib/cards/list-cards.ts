import "server-only";
import { and, asc, desc, eq, inArray, ne } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "@/db/client";
import { cards, sessionHolds, workspaces } from "@/db/schema";
import { visibleWorkspaces } from "@/lib/auth/access";
import type { Actor } from "@/lib/auth/actor";
import { toCardView, withFoldedInput, type CardView } from "./view";

export const ListCardsInput = z.object({
  status: z.enum(["pending", "settled", "all"]).default("pending"),
  workspace: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type ListCardsInput = z.infer<typeof ListCardsInput>;

/** Pending cards oldest first (queue order); settled and all newest first; only the actor's workspaces. Inputs are folded previews. */
export async function listCards({
  db,
  actor,
  input,
}: {
  db: DbOrTx;
  actor: Actor;
  input: z.input<typeof ListCardsInput>;
}): Promise<CardView[]> {
  const args = ListCardsInput.parse(input);
  const visible = visibleWorkspaces(actor);
  if (visible !== "all" && visible.length === 0) return [];
  const filters = [
    visible === "all" ? undefined : inArray(cards.workspaceId, visible),
    args.status === "pending"
      ? eq(cards.status, "pending")
      : args.status === "settled"
        ? ne(cards.status, "pending")
        : undefined,
    args.workspace ? eq(cards.workspaceId, args.workspace) : undefined,
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
    .orderBy(args.status === "pending" ? asc(cards.createdAt) : desc(cards.createdAt), asc(cards.id))
    .limit(args.limit);
  return rows.map((r) => withFoldedInput(toCardView(r.card, r.workspace, r.hold)));
}
