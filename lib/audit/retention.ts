import "server-only";
import { and, desc, eq, lt, lte, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { auditCheckpoints, auditEvents, auditSearch } from "@/db/schema";
import { SYSTEM_ACTOR } from "./actor";
import type { AuditActor } from "./events";
import { lockHead } from "./head";
import { recordAudit } from "./record";

export interface RetentionResult {
  deleted: number;
  /** The checkpoint that now anchors the chain, or null when nothing was old enough. */
  upToSeq: number | null;
}

/**
 * Deletes events older than `cutoff`, but only up to the newest signed checkpoint whose event is older:
 * that checkpoint stays as the anchor, so verify still passes. The cut is itself an audit event.
 */
export async function cutRetention(
  db: Db,
  { cutoff, actor = SYSTEM_ACTOR }: { cutoff: Date; actor?: AuditActor },
): Promise<RetentionResult> {
  return db.transaction(async (tx) => {
    await lockHead(tx);
    const [anchor] = await tx
      .select({ seq: auditCheckpoints.seq, headHash: auditCheckpoints.headHash })
      .from(auditCheckpoints)
      .innerJoin(auditEvents, eq(auditEvents.seq, auditCheckpoints.seq))
      .where(and(lt(auditEvents.at, cutoff), eq(auditEvents.hash, auditCheckpoints.headHash)))
      .orderBy(desc(auditCheckpoints.seq))
      .limit(1);
    if (!anchor) return { deleted: 0, upToSeq: null };
    const upToSeq = Number(anchor.seq);
    const [{ n }] = (await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(auditEvents)
      .where(lte(auditEvents.seq, upToSeq))) as [{ n: number }];
    await tx.delete(auditEvents).where(lte(auditEvents.seq, upToSeq));
    await tx.delete(auditSearch).where(lte(auditSearch.seq, upToSeq));
    await recordAudit(tx, {
      type: "audit.retention_cut",
      actor,
      outcome: "deleted",
      detail: { upToSeq, deleted: Number(n), anchorHash: anchor.headHash },
    });
    return { deleted: Number(n), upToSeq };
  });
}

/** Applies `COCKPIT_AUDIT_RETENTION_DAYS` (the background timer's checkpoints are the possible cut points). */
export async function runRetention(db: Db, days: number, now = new Date()): Promise<RetentionResult> {
  return cutRetention(db, { cutoff: new Date(now.getTime() - days * 86_400_000) });
}
