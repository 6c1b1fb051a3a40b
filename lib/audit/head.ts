import "server-only";
import { asc, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { auditCheckpoints, auditEvents } from "@/db/schema";
import { GENESIS, rowHash, type ChainedRow } from "./chain";
import { keyDirOf } from "./config";
import { macSigningKey, rowMac } from "./keys";

/** A transaction: the only thing recordAudit accepts, so an audit row always commits with its change. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Key of the transaction-scoped advisory lock that serializes appends (PGlite supports it too). */
export const AUDIT_LOCK_KEY = 0x617564_69; // "audi"

export type Head = { seq: number; hash: string; at: Date | null };

/** Takes the append lock and returns the chain's head: the last row, or the retention anchor, or genesis. */
export async function lockHead(tx: Tx): Promise<Head> {
  await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_LOCK_KEY})`);
  const [last] = await tx
    .select({ seq: auditEvents.seq, hash: auditEvents.hash, at: auditEvents.at })
    .from(auditEvents)
    .orderBy(desc(auditEvents.seq))
    .limit(1);
  if (last?.hash) return { seq: Number(last.seq), hash: last.hash, at: last.at };
  if (last) return sealLegacyRows(tx);
  const [anchor] = await tx.select().from(auditCheckpoints).orderBy(desc(auditCheckpoints.seq)).limit(1);
  return anchor ? { seq: Number(anchor.seq), hash: anchor.headHash, at: null } : { seq: 0, hash: GENESIS, at: null };
}

/** Rows written before the chain existed get chained once, in seq order, by the first append after the upgrade. */
async function sealLegacyRows(tx: Tx): Promise<Head> {
  const [prev] = await tx
    .select({ seq: auditEvents.seq, hash: auditEvents.hash })
    .from(auditEvents)
    .where(sql`${auditEvents.hash} is not null`)
    .orderBy(desc(auditEvents.seq))
    .limit(1);
  let head: Head = prev?.hash
    ? { seq: Number(prev.seq), hash: prev.hash, at: null }
    : { seq: 0, hash: GENESIS, at: null };
  const rows = await tx.select().from(auditEvents).where(isNull(auditEvents.hash)).orderBy(asc(auditEvents.seq));
  if (!rows.length) return head;
  const key = macSigningKey(await keyDirOf(), Number(rows[0]!.seq));
  for (const row of rows) {
    const chained = { ...row, seq: Number(row.seq), prevHash: head.hash } as ChainedRow;
    const hash = rowHash(chained);
    await tx
      .update(auditEvents)
      .set({ prevHash: head.hash, hash, mac: rowMac(key, Number(row.seq), hash) })
      .where(eq(auditEvents.seq, row.seq));
    head = { seq: Number(row.seq), hash, at: row.at };
  }
  return head;
}
