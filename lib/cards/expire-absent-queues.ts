import "server-only";
import { and, asc, eq, isNotNull, lte } from "drizzle-orm";
import type { Db } from "@/db/client";
import { cards, sessionHolds } from "@/db/schema";
import { ABSENCE_REASON } from "./absence";
import { publishCardChange } from "./bus";
import { settleOnce } from "./settle-common";

/**
 * The absence sweep: every root session whose deadline passed has its whole unanswered queue
 * denied with the absence reason, and a hold is set (before the cards settle, in the same
 * transaction) so new asks are denied at once until the user writes again. No rule is stored.
 */
export async function expireAbsentQueues({
  db,
  now = new Date(),
}: {
  db: Db;
  now?: Date;
}): Promise<{ sessions: number; cards: string[] }> {
  const due = await db
    .select()
    .from(sessionHolds)
    .where(and(isNotNull(sessionHolds.deadlineAt), lte(sessionHolds.deadlineAt, now)));
  const expired: { id: string; workspaceId: string }[] = [];
  for (const session of due) {
    const ids = await db.transaction(async (tx) => {
      // Re-read under the transaction: an answer may have moved the deadline since the scan.
      const [current] = await tx
        .update(sessionHolds)
        .set({ heldAt: now, deadlineAt: null, updatedAt: now })
        .where(
          and(
            eq(sessionHolds.workspaceId, session.workspaceId),
            eq(sessionHolds.rootSessionId, session.rootSessionId),
            lte(sessionHolds.deadlineAt, now),
          ),
        )
        .returning();
      if (!current) return [];
      const queue = await tx
        .select()
        .from(cards)
        .where(
          and(
            eq(cards.workspaceId, session.workspaceId),
            eq(cards.rootSessionId, session.rootSessionId),
            eq(cards.status, "pending"),
          ),
        )
        .orderBy(asc(cards.createdAt));
      const done: string[] = [];
      for (const card of queue) {
        const row = await settleOnce(tx, {
          card,
          status: "expired",
          by: "expiry",
          via: "expiry",
          settlement: { outcome: "deny", remember: "once", message: ABSENCE_REASON, source: "expired" },
          event: "expired",
          now,
          human: false,
        });
        if (row) done.push(row.id);
      }
      return done;
    });
    for (const id of ids) expired.push({ id, workspaceId: session.workspaceId });
  }
  for (const c of expired)
    publishCardChange({ type: "expired", cardId: c.id, workspaceId: c.workspaceId, status: "expired" });
  return { sessions: due.length, cards: expired.map((c) => c.id) };
}
