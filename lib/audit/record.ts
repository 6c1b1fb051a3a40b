import { is } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import type { Db, DbOrTx } from "@/db/client";
import { auditEvents } from "@/db/schema";
import { rowHash, type ChainedRow } from "./chain";
import { maybeCheckpoint } from "./checkpoint";
import { parseAuditEvent, type AuditActor, type AuditEvent } from "./events";
import { lockHead, type Tx } from "./head";
import { sanitizeDetail, sanitizeInput } from "./sanitize";

export type { Tx } from "./head";

/**
 * The one audit writer. Validates the event, masks secrets in its input and detail, takes the append
 * lock, links the row to the chain's head and signs a checkpoint when one is due — all in `tx`.
 */
export async function recordAudit(tx: Tx, event: AuditEvent): Promise<{ seq: number; hash: string }> {
  // `is()` compares drizzle's entity kinds, not class identity: the production server may load drizzle twice
  // (instrumentation opens the database, a route bundle writes), and `instanceof` fails across the copies.
  if (!is(tx, PgTransaction))
    throw new Error("recordAudit must run inside the transaction of the change it records");
  const e = parseAuditEvent(event);
  const head = await lockHead(tx);
  // Time never runs backwards along the chain, even if the clock does.
  const now = new Date();
  const at = head.at && head.at > now ? head.at : now;
  const row: ChainedRow = {
    seq: head.seq + 1,
    at,
    workspaceId: e.workspaceId ?? null,
    actor: e.actor.label,
    actorType: e.actor.type,
    actorId: e.actor.id ?? null,
    actorRole: e.actor.role ?? null,
    actorSession: e.actor.session ?? null,
    actorChannel: e.actor.channel ?? null,
    actorAddress: e.actor.address ?? null,
    action: e.type,
    target: e.target ?? null,
    outcome: e.outcome ?? null,
    decisionSource: e.decisionSource ?? null,
    rule: e.rule ?? null,
    store: e.store ?? null,
    agent: e.agent ?? null,
    agentSessionId: e.agentSessionId ?? null,
    toolUseId: e.toolUseId ?? null,
    cwd: e.cwd ?? null,
    tool: e.tool ?? null,
    input: sanitizeInput(e.input),
    detail: sanitizeDetail({ ...e.detail, ...attributionDetail(e.actor) }),
    prevHash: head.hash,
  };
  const hash = rowHash(row);
  await tx.insert(auditEvents).values({ ...row, hash });
  await maybeCheckpoint(tx, { seq: row.seq, hash, at });
  return { seq: row.seq, hash };
}

/** The parts of a person's attribution that have no column of their own: device, sign-in and passkey. */
function attributionDetail(actor: AuditActor): Record<string, unknown> {
  return {
    ...(actor.device ? { device: actor.device } : {}),
    ...(actor.signIn ? { signIn: actor.signIn } : {}),
    ...(actor.passkey ? { passkey: actor.passkey } : {}),
  };
}

/** Runs `fn` in the caller's transaction, or opens one: for helpers that take either a database or a transaction. */
export function inTransaction<T>(db: DbOrTx, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return is(db, PgTransaction) ? fn(db as Tx) : (db as Db).transaction(fn);
}
