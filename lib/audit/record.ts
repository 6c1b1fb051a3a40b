import "server-only";
import { macSigningKey, rowMac } from "./keys";
import { is, sql } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import { auditEvents } from "@/db/schema";
import { rowHash, type ChainedRow } from "./chain";
import { latestCheckpoint, maybeCheckpoint, writeCheckpoint } from "./checkpoint";
import { auditConfig, keyDirOf } from "./config";
import { parseAuditEvent, type AuditActor, type AuditEvent } from "./events";
import { lockHead, type Tx } from "./head";
import { sanitizeDetail, sanitizeInput } from "./sanitize";

export type { Tx } from "./head";

/**
 * drizzle's `is()` compares entity kinds, not class identity: the Next.js server can hold two copies of
 * drizzle (instrumentation and route layers share one database opened by either), where `instanceof`
 * wrongly says no.
 */
const isTransaction = (x: unknown): boolean => is(x, PgTransaction);

/**
 * The one audit writer. Validates the event, masks secrets in its input and detail, takes the append
 * lock, links the row to the chain's head and signs a checkpoint when one is due — all in `tx`.
 */
export async function recordAudit(tx: Tx, event: AuditEvent): Promise<{ seq: number; hash: string }> {
  if (!isTransaction(tx)) throw new Error("recordAudit must run inside the transaction of the change it records");
  const e = parseAuditEvent(event);
  const head = await lockHead(tx);
  // Time never runs backwards along the chain, even if the clock does.
  const now = new Date();
  const at = head.at && head.at > now ? head.at : now;
  const row = chainedRow(e, head.seq + 1, at, head.hash);
  const hash = rowHash(row);
  const key = macSigningKey(await keyDirOf(), row.seq);
  await tx.insert(auditEvents).values({ ...row, hash, mac: rowMac(key, row.seq, hash) });
  await maybeCheckpoint(tx, { seq: row.seq, hash, at });
  return { seq: row.seq, hash };
}

/** Rows per INSERT statement in recordAuditBatch. */
const INSERT_CHUNK = 2000;

/** Column name and SQL type of every stored column, in the order of jsonb_to_recordset's record. */
const COLUMNS: Array<[keyof ChainedRow | "hash" | "mac", string, string]> = [
  ["seq", "seq", "bigint"],
  ["at", "at", "timestamptz"],
  ["workspaceId", "workspace_id", "text"],
  ["actor", "actor", "text"],
  ["actorType", "actor_type", "text"],
  ["actorId", "actor_id", "text"],
  ["actorRole", "actor_role", "text"],
  ["actorSession", "actor_session", "text"],
  ["actorChannel", "actor_channel", "text"],
  ["actorAddress", "actor_address", "text"],
  ["action", "action", "text"],
  ["target", "target", "text"],
  ["outcome", "outcome", "text"],
  ["decisionSource", "decision_source", "text"],
  ["rule", "rule", "text"],
  ["store", "store", "text"],
  ["agent", "agent", "text"],
  ["agentSessionId", "agent_session_id", "text"],
  ["toolUseId", "tool_use_id", "text"],
  ["cwd", "cwd", "text"],
  ["tool", "tool", "text"],
  ["input", "input", "jsonb"],
  ["detail", "detail", "jsonb"],
  ["prevHash", "prev_hash", "text"],
  ["hash", "hash", "text"],
  ["mac", "mac", "text"],
];
const COLUMN_LIST = sql.raw(COLUMNS.map(([, c]) => `"${c}"`).join(", "));
const RECORD_TYPE = sql.raw(COLUMNS.map(([, c, t]) => `"${c}" ${t}`).join(", "));

/**
 * Many rows in one statement with one parameter: a JSON array expanded by jsonb_to_recordset. Far
 * cheaper than thousands of bind parameters (PGlite especially); the values are the hashed ones.
 */
async function insertRows(tx: Tx, rows: (ChainedRow & { hash: string; mac: string })[]): Promise<void> {
  const records = rows.map((r) => {
    const o: Record<string, unknown> = {};
    for (const [k, c] of COLUMNS) o[c] = k === "at" ? r.at.toISOString() : (r as unknown as Record<string, unknown>)[k];
    return o;
  });
  await tx.execute(
    sql`insert into audit_events (${COLUMN_LIST}) select ${COLUMN_LIST} from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as x(${RECORD_TYPE})`,
  );
}

/**
 * Many events in one append: validated and sanitized like recordAudit, the lock and head read once,
 * multi-row inserts, and a signed checkpoint at every `checkpointEvery` crossing. For ingest paths
 * (agent event batches, importers); the events share `tx`, so they commit or roll back together.
 */
export async function recordAuditBatch(tx: Tx, events: AuditEvent[]): Promise<{ first: number; last: number }> {
  if (!isTransaction(tx)) throw new Error("recordAuditBatch must run inside the transaction of the change it records");
  const parsed = events.map(parseAuditEvent);
  const head = await lockHead(tx);
  if (!parsed.length) return { first: head.seq + 1, last: head.seq };
  const now = new Date();
  const at = head.at && head.at > now ? head.at : now;
  const rows: (ChainedRow & { hash: string; mac: string })[] = [];
  const key = macSigningKey(await keyDirOf(), head.seq + 1);
  let prev = head.hash;
  for (const [i, e] of parsed.entries()) {
    const row = chainedRow(e, head.seq + 1 + i, at, prev);
    prev = rowHash(row);
    rows.push({ ...row, hash: prev, mac: rowMac(key, row.seq, prev) });
  }
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) await insertRows(tx, rows.slice(i, i + INSERT_CHUNK));
  const every = auditConfig().checkpointEvery;
  let lastCheckpoint = (await latestCheckpoint(tx))?.seq ?? 0;
  for (const r of rows) {
    if (r.seq - lastCheckpoint < every) continue;
    await writeCheckpoint(tx, { seq: r.seq, hash: r.hash });
    lastCheckpoint = r.seq;
  }
  return { first: rows[0]!.seq, last: rows.at(-1)!.seq };
}

function chainedRow(e: ReturnType<typeof parseAuditEvent>, seq: number, at: Date, prevHash: string): ChainedRow {
  return {
    seq,
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
    prevHash,
  };
}

/** The parts of a person's attribution that have no column of their own: device, sign-in and passkey. */
function attributionDetail(actor: AuditActor): Record<string, unknown> {
  return {
    ...(actor.device ? { device: actor.device } : {}),
    ...(actor.signIn ? { signIn: actor.signIn } : {}),
    ...(actor.passkey ? { passkey: actor.passkey } : {}),
  };
}
