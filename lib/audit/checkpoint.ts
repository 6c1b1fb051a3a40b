import "server-only";
import { desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { auditCheckpoints, notifyDeliveries, webhookEndpoints } from "@/db/schema";
import { newMessageId } from "@/lib/notify/signing";
import { checkpointStatement } from "./chain";
import { auditConfig, keyDirOf } from "./config";
import { signingKey, signStatement } from "./keys";
import { lockHead, type Tx } from "./head";

export type Checkpoint = typeof auditCheckpoints.$inferSelect;

export async function latestCheckpoint(db: Db | Tx): Promise<Checkpoint | null> {
  const [row] = await db.select().from(auditCheckpoints).orderBy(desc(auditCheckpoints.seq)).limit(1);
  return row ?? null;
}

/**
 * Signs {seq, head hash, time}, stores it, and queues a copy for every webhook subscribed to
 * `audit.checkpoint` — the outside copy that catches a rewrite of the whole database.
 * Call holding the append lock, in the transaction that wrote the head.
 */
export async function writeCheckpoint(tx: Tx, head: { seq: number; hash: string }): Promise<Checkpoint> {
  const key = signingKey(await keyDirOf())!;
  const at = new Date();
  const signature = signStatement(key, checkpointStatement({ seq: head.seq, headHash: head.hash, at }));
  const [row] = await tx
    .insert(auditCheckpoints)
    .values({ seq: head.seq, headHash: head.hash, at, keyId: key.keyId, signature })
    .onConflictDoNothing()
    .returning();
  if (!row) return (await tx.select().from(auditCheckpoints).where(eq(auditCheckpoints.seq, head.seq)))[0]!;
  const endpoints = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.enabled, true));
  for (const ep of endpoints.filter((e) => e.events.includes("audit.checkpoint"))) {
    await tx
      .insert(notifyDeliveries)
      .values({
        id: crypto.randomUUID(),
        endpointId: ep.id,
        checkpointSeq: row.seq,
        eventType: "audit.checkpoint",
        msgId: newMessageId(),
        eventAt: at,
        nextAttemptAt: at,
      })
      .onConflictDoNothing();
  }
  return row;
}

/** After an append: a checkpoint when `checkpointEvery` events have passed since the last one. */
export async function maybeCheckpoint(tx: Tx, head: { seq: number; hash: string; at: Date }): Promise<void> {
  const last = await latestCheckpoint(tx);
  if (head.seq - (last?.seq ?? 0) >= auditConfig().checkpointEvery) await writeCheckpoint(tx, head);
}

/** Timer side: a checkpoint when the head moved and the last one is `checkpointIntervalMs` old (or none exists). */
export async function checkpointIfDue(db: Db, now = new Date()): Promise<Checkpoint | null> {
  return db.transaction(async (tx) => {
    const head = await lockHead(tx);
    const last = await latestCheckpoint(tx);
    if (head.seq === 0 || head.seq <= (last?.seq ?? 0)) return null;
    if (last && now.getTime() - last.at.getTime() < auditConfig().checkpointIntervalMs) return null;
    return writeCheckpoint(tx, head);
  });
}

/** Forces a checkpoint of the current head (retention, tests, an operator before a backup). */
export async function checkpointNow(db: Db): Promise<Checkpoint | null> {
  return db.transaction(async (tx) => {
    const head = await lockHead(tx);
    if (head.seq === 0) return null;
    return writeCheckpoint(tx, head);
  });
}

/** What a receiver needs to keep and later check a checkpoint: the statement fields, signature and public key. */
export async function checkpointMessage(c: Checkpoint) {
  const key = signingKey(await keyDirOf(), { create: false });
  return {
    seq: Number(c.seq),
    headHash: c.headHash,
    at: c.at.toISOString(),
    keyId: c.keyId,
    signature: c.signature,
    algorithm: "Ed25519",
    publicKey: key ? key.publicKey.export({ format: "der", type: "spki" }).subarray(-32).toString("base64url") : null,
    /** The exact signed bytes, base64url (tag + canonical JSON of {seq, headHash, at}). */
    statement: checkpointStatement({ seq: Number(c.seq), headHash: c.headHash, at: c.at }).toString("base64url"),
  };
}
