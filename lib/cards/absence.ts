import "server-only";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, DbOrTx } from "@/db/client";
import { appSettings, cards, sessionHolds } from "@/db/schema";
import { auditActor, recordAudit } from "@/lib/audit";
import { requireCan } from "@/lib/auth/access";
import type { Actor } from "@/lib/auth/actor";

export const ABSENCE_SETTING = "absence_timeout_seconds";
export const ABSENCE_REASON =
  "The user may be away: nothing was authorized. Do not retry just to get an answer; continue with other work or wait for the user.";

export const AbsenceSetting = z.object({
  timeoutSeconds: z
    .number()
    .int()
    .min(1)
    .max(30 * 86_400)
    .nullable(),
});
export type AbsenceSetting = z.infer<typeof AbsenceSetting>;

/** Seconds without a human answer before a root session's queue expires; null = off (the default). */
export async function absenceTimeout(db: DbOrTx): Promise<number | null> {
  const [row] = await db.select().from(appSettings).where(eq(appSettings.key, ABSENCE_SETTING));
  const value = row?.value;
  return typeof value === "number" && value > 0 ? value : null;
}

/** Turning the timeout off cancels every deadline and clears every hold; a new duration applies from the next admission or answer. */
export async function setAbsenceTimeout({
  db,
  actor,
  input,
}: {
  db: Db;
  actor: Actor;
  input: AbsenceSetting;
}): Promise<AbsenceSetting> {
  const role = requireCan(actor, "settings.manage", null);
  const { timeoutSeconds } = AbsenceSetting.parse(input);
  await db.transaction(async (tx) => {
    if (timeoutSeconds === null) {
      // Off is the absence of the setting (the value column cannot hold SQL NULL).
      await tx.delete(appSettings).where(eq(appSettings.key, ABSENCE_SETTING));
      await tx.update(sessionHolds).set({ deadlineAt: null, heldAt: null, updatedAt: new Date() });
    } else {
      await tx
        .insert(appSettings)
        .values({ key: ABSENCE_SETTING, value: timeoutSeconds })
        .onConflictDoUpdate({ target: appSettings.key, set: { value: timeoutSeconds, updatedAt: new Date() } });
    }
    await recordAudit(tx, {
      type: "settings.absence",
      actor: auditActor(actor, { workspaceId: null, role }),
      detail: { timeoutSeconds },
    });
  });
  return { timeoutSeconds };
}

type RootKey = { workspaceId: string; rootSessionId: string };

export async function holdOf(db: DbOrTx, key: RootKey) {
  const [row] = await db
    .select()
    .from(sessionHolds)
    .where(and(eq(sessionHolds.workspaceId, key.workspaceId), eq(sessionHolds.rootSessionId, key.rootSessionId)));
  return row ?? null;
}

async function pendingCount(tx: DbOrTx, key: RootKey): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(cards)
    .where(
      and(
        eq(cards.workspaceId, key.workspaceId),
        eq(cards.rootSessionId, key.rootSessionId),
        eq(cards.status, "pending"),
      ),
    );
  return Number(row?.n ?? 0);
}

async function setDeadline(tx: DbOrTx, key: RootKey, deadlineAt: Date | null, now: Date): Promise<void> {
  await tx
    .insert(sessionHolds)
    .values({ ...key, deadlineAt, updatedAt: now })
    .onConflictDoUpdate({
      target: [sessionHolds.workspaceId, sessionHolds.rootSessionId],
      set: { deadlineAt, updatedAt: now },
    });
}

/** After an admission: the first card in an empty queue starts the period; siblings join it. */
export async function startDeadlineIfFirst(tx: DbOrTx, key: RootKey, now: Date): Promise<void> {
  const seconds = await absenceTimeout(tx);
  if (seconds === null) return;
  if ((await pendingCount(tx, key)) !== 1) return;
  await setDeadline(tx, key, new Date(now.getTime() + seconds * 1000), now);
}

/** After any settlement: a genuine human answer restarts the period; an empty queue cancels it. */
export async function afterSettlement(tx: DbOrTx, key: RootKey, now: Date, humanAnswer: boolean): Promise<void> {
  const remaining = await pendingCount(tx, key);
  if (remaining === 0) {
    await tx
      .update(sessionHolds)
      .set({ deadlineAt: null, updatedAt: now })
      .where(
        and(
          eq(sessionHolds.workspaceId, key.workspaceId),
          eq(sessionHolds.rootSessionId, key.rootSessionId),
          isNotNull(sessionHolds.deadlineAt),
        ),
      );
    return;
  }
  if (!humanAnswer) return;
  const seconds = await absenceTimeout(tx);
  if (seconds !== null) await setDeadline(tx, key, new Date(now.getTime() + seconds * 1000), now);
}
