import "server-only";
import { and, count, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { cards } from "@/db/schema";
import { visibleWorkspaces } from "@/lib/auth/access";
import type { Actor } from "@/lib/auth/actor";

/** How many cards wait for this person (optionally in one workspace): what the nav badge and tab title show. */
export async function countPendingCards({
  db,
  actor,
  input = {},
}: {
  db: DbOrTx;
  actor: Actor;
  input?: { workspaceId?: string };
}): Promise<number> {
  const visible = visibleWorkspaces(actor);
  if (visible !== "all" && visible.length === 0) return 0;
  const [row] = await db
    .select({ n: count() })
    .from(cards)
    .where(
      and(
        eq(cards.status, "pending"),
        input.workspaceId ? eq(cards.workspaceId, input.workspaceId) : undefined,
        visible === "all" ? undefined : inArray(cards.workspaceId, visible),
      ),
    );
  return Number(row?.n ?? 0);
}
