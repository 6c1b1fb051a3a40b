import "server-only";
import { and, asc, desc, eq, gt, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  appSettings,
  cardEvents,
  notifyDeliveries,
  notifyOutboxMarks,
  memberships,
  pushSubscriptions,
  users,
  webhookEndpoints,
  type CardEventType,
  type NotifyEventType,
} from "@/db/schema";
import { nowOf, type NotifyEnv } from "./notify-env";
import { newMessageId } from "./signing";

const CURSOR_KEY = "notify.outbox_cursor";
/** Transactions commit out of seq order; events this young may still appear below the cursor, so they are tracked by mark instead. */
const SETTLE_WINDOW_MS = 10 * 60 * 1000;
/** Events older than this when first seen (e.g. the server was down) are not announced: a stale buzz helps no one. */
const MAX_EVENT_AGE_MS = 60 * 60 * 1000;

export function notifyTypeOf(type: CardEventType): NotifyEventType | null {
  if (type === "enqueued") return "card.admitted";
  if (type === "expired") return "card.expired";
  if (type === "resolved" || type === "coalesced" || type === "swept" || type === "aborted") return "card.settled";
  return null;
}

/**
 * Turns new card events into per-target deliveries in one transaction: a mark per event plus the
 * unique (event, target) keys make it exactly once across crashes, restarts and several workers.
 * Returns the number of deliveries created.
 */
export async function fanOut(db: Db, env: NotifyEnv = {}, batch = 200): Promise<number> {
  const now = nowOf(env);
  return db.transaction(async (tx) => {
    const [cursorRow] = await tx.select().from(appSettings).where(eq(appSettings.key, CURSOR_KEY));
    const cursor = Number((cursorRow?.value as { seq?: number } | undefined)?.seq ?? 0);
    const events = await tx
      .select()
      .from(cardEvents)
      .leftJoin(notifyOutboxMarks, eq(notifyOutboxMarks.seq, cardEvents.seq))
      .where(and(gt(cardEvents.seq, cursor), isNull(notifyOutboxMarks.seq)))
      .orderBy(asc(cardEvents.seq))
      .limit(batch);
    let created = 0;
    let endpoints: Array<typeof webhookEndpoints.$inferSelect> | null = null;
    for (const { card_events: e } of events) {
      const [mark] = await tx.insert(notifyOutboxMarks).values({ seq: e.seq }).onConflictDoNothing().returning();
      if (!mark) continue;
      const type = notifyTypeOf(e.type);
      if (!type || now.getTime() - e.at.getTime() > MAX_EVENT_AGE_MS) continue;
      endpoints ??= await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.enabled, true));
      const targets = endpoints.filter(
        (ep) => (ep.workspaceId === null || ep.workspaceId === e.workspaceId) && ep.events.includes(type),
      );
      const base = { eventSeq: e.seq, cardId: e.cardId, eventType: type, msgId: newMessageId(), eventAt: e.at };
      for (const ep of targets) {
        const due = new Date(e.at.getTime() + (type === "card.admitted" ? ep.delaySeconds * 1000 : 0));
        const rows = await tx
          .insert(notifyDeliveries)
          .values({ ...base, id: crypto.randomUUID(), endpointId: ep.id, nextAttemptAt: due })
          .onConflictDoNothing()
          .returning({ id: notifyDeliveries.id });
        created += rows.length;
      }
      if (type === "card.admitted") {
        // Push goes only to people who may see the card's workspace (the owner, or a grant there or on all).
        const subs = await tx
          .select({ id: pushSubscriptions.id })
          .from(pushSubscriptions)
          .innerJoin(users, eq(users.id, pushSubscriptions.userId))
          .where(
            and(
              isNull(users.removedAt),
              or(
                eq(users.isOwner, true),
                sql`exists (select 1 from ${memberships} where ${memberships.userId} = ${users.id} and (${memberships.workspaceId} is null or ${memberships.workspaceId} = ${e.workspaceId}))`,
              ),
            ),
          );
        for (const sub of subs) {
          const rows = await tx
            .insert(notifyDeliveries)
            .values({
              ...base,
              msgId: newMessageId(),
              id: crypto.randomUUID(),
              subscriptionId: sub.id,
              nextAttemptAt: e.at,
            })
            .onConflictDoNothing()
            .returning({ id: notifyDeliveries.id });
          created += rows.length;
        }
      }
    }
    // Move the cursor past events old enough that no earlier seq can still commit, and forget their marks.
    const [settled] = await tx
      .select({ seq: cardEvents.seq })
      .from(cardEvents)
      .where(and(gt(cardEvents.seq, cursor), lt(cardEvents.at, new Date(now.getTime() - SETTLE_WINDOW_MS))))
      .orderBy(desc(cardEvents.seq))
      .limit(1);
    // A full batch may have left unmarked events below the candidate: never pass those.
    const limit = events.length === batch ? events[events.length - 1]!.card_events.seq : Infinity;
    const next = settled ? Math.min(settled.seq, limit) : null;
    if (next !== null && next > cursor) {
      await tx
        .insert(appSettings)
        .values({ key: CURSOR_KEY, value: { seq: next } })
        .onConflictDoUpdate({ target: appSettings.key, set: { value: { seq: next }, updatedAt: now } });
      await tx.delete(notifyOutboxMarks).where(lte(notifyOutboxMarks.seq, next));
    }
    return created;
  });
}

/** Deliveries whose time has come and that no worker holds, claimed with a lease (SKIP LOCKED lets workers share the table). */
export async function claimDue(db: Db, env: NotifyEnv = {}, limit = 50, leaseMs = 60_000) {
  const now = nowOf(env);
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: notifyDeliveries.id })
      .from(notifyDeliveries)
      .where(
        and(
          eq(notifyDeliveries.status, "pending"),
          lte(notifyDeliveries.nextAttemptAt, now),
          or(isNull(notifyDeliveries.leaseUntil), lt(notifyDeliveries.leaseUntil, now)),
        ),
      )
      .orderBy(asc(notifyDeliveries.nextAttemptAt))
      .limit(limit)
      .for("update", { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(notifyDeliveries)
      .set({ leaseUntil: new Date(now.getTime() + leaseMs) })
      .where(sql`${notifyDeliveries.id} in ${due.map((d) => d.id)}`)
      .returning();
  });
}

/** Frees every lease (start-up of the only process on an embedded database: nobody else holds one). */
export async function releaseLeases(db: Db): Promise<void> {
  await db.update(notifyDeliveries).set({ leaseUntil: null }).where(eq(notifyDeliveries.status, "pending"));
}
