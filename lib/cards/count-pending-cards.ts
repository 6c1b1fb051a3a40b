import { and, count, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { cards } from "@/db/schema";

/** How many cards wait for a person (optionally in one workspace): what the nav badge and tab title show. */
export async function countPendingCards(db: DbOrTx, { workspaceId }: { workspaceId?: string } = {}): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(cards)
    .where(and(eq(cards.status, "pending"), workspaceId ? eq(cards.workspaceId, workspaceId) : undefined));
  return Number(row?.n ?? 0);
}
