import { dialectOf } from "@/lib/agents/dialects";
import "server-only";
import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, DbOrTx } from "@/db/client";
import { sessionEntries } from "@/db/schema";
import { namedActor, recordAudit, type Tx } from "@/lib/audit";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { STORE_AGENTS } from "@/lib/agents";
import { parseRule } from "@/lib/policy";
import type { SessionEntryRow, SessionEntrySource } from "@/lib/stores/session";

export const AddSessionEntryInput = z.object({
  workspaceId: z.string().min(1),
  agentSessionId: z.string().trim().min(1).max(300),
  agent: z.enum(STORE_AGENTS),
  action: z.enum(["allow", "ask", "deny"]),
  rule: z.string().trim().min(1).max(10_000),
});
export type AddSessionEntryInput = z.infer<typeof AddSessionEntryInput>;

function toRow(r: typeof sessionEntries.$inferSelect): SessionEntryRow {
  return {
    id: r.id,
    agentSessionId: r.agentSessionId,
    agent: r.agent as SessionEntryRow["agent"],
    action: r.action as SessionEntryRow["action"],
    rule: r.rule,
    createdAt: r.createdAt.toISOString(),
  };
}

/** Adds a session rule and its `entry.added` row in the caller's transaction; the rule must parse. */
export async function addSessionEntry(
  tx: Tx,
  { actorName, input }: { actorName: string; input: AddSessionEntryInput },
): Promise<SessionEntryRow> {
  const parsed = parseRule(input.rule, input.action, {
    dialect: dialectOf(input.agent),
    source: { scope: "session", store: `session:${input.agentSessionId}` },
  });
  if (!parsed.ok) throw new ValidationError(`invalid rule "${input.rule}": ${parsed.error}`);
  const [row] = await tx
    .insert(sessionEntries)
    .values({ id: crypto.randomUUID(), ...input, createdBy: actorName })
    .returning();
  await recordAudit(tx, {
    type: "entry.added",
    actor: namedActor(actorName),
    target: row!.id,
    workspaceId: input.workspaceId,
    rule: input.rule,
    store: `session:${input.agentSessionId}`,
    agent: input.agent,
    agentSessionId: input.agentSessionId,
    detail: { scope: "session", entryAction: input.action, after: input.rule },
  });
  return toRow(row!);
}

export async function listSessionEntries(
  db: DbOrTx,
  { workspaceId, agentSessionId }: { workspaceId: string; agentSessionId?: string },
): Promise<SessionEntryRow[]> {
  const rows = await db
    .select()
    .from(sessionEntries)
    .where(
      and(
        eq(sessionEntries.workspaceId, workspaceId),
        agentSessionId ? eq(sessionEntries.agentSessionId, agentSessionId) : undefined,
      ),
    )
    .orderBy(asc(sessionEntries.createdAt));
  return rows.map(toRow);
}

// The rows of recent sessions with their version, so an unchanged session is not fetched again.
const rowCache = new Map<string, { version: string; rows: SessionEntryRow[] }>();
const ROW_CACHE_MAX = 512;

/**
 * `listSessionEntries` for one agent session, fetched again only when the session's version changed.
 * The version is one aggregate row: count, newest created_at and the sum of the ids' hashes — an add
 * (newest row), a revoke (count and hash sum) or both change it.
 */
export async function sessionEntriesVersioned(
  db: DbOrTx,
  { workspaceId, agentSessionId }: { workspaceId: string; agentSessionId: string },
): Promise<SessionEntryRow[]> {
  const [agg] = await db
    .select({
      n: sql<string>`count(*)`,
      newest: sql<string | null>`max(${sessionEntries.createdAt})::text`,
      ids: sql<string | null>`sum(hashtext(${sessionEntries.id})::bigint)::text`,
    })
    .from(sessionEntries)
    .where(and(eq(sessionEntries.workspaceId, workspaceId), eq(sessionEntries.agentSessionId, agentSessionId)));
  const version = `${agg?.n}\0${agg?.newest}\0${agg?.ids}`;
  const key = `${workspaceId}\0${agentSessionId}`;
  const hit = rowCache.get(key);
  if (hit && hit.version === version) {
    rowCache.delete(key);
    rowCache.set(key, hit);
    return hit.rows;
  }
  if (String(agg?.n) === "0") {
    rowCache.delete(key);
    return [];
  }
  const rows = await listSessionEntries(db, { workspaceId, agentSessionId });
  rowCache.set(key, { version, rows });
  if (rowCache.size > ROW_CACHE_MAX) rowCache.delete(rowCache.keys().next().value!);
  return rows;
}

export async function revokeSessionEntry(
  db: Db,
  { actorName, workspaceId, id }: { actorName: string; workspaceId: string; id: string },
): Promise<SessionEntryRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .delete(sessionEntries)
      .where(and(eq(sessionEntries.id, id), eq(sessionEntries.workspaceId, workspaceId)))
      .returning();
    if (!row) throw new NotFoundError(`no session entry ${id} in this workspace`);
    await recordAudit(tx, {
      type: "entry.revoked",
      actor: namedActor(actorName),
      target: id,
      workspaceId,
      rule: row.rule,
      store: `session:${row.agentSessionId}`,
      agent: row.agent,
      agentSessionId: row.agentSessionId,
      detail: { scope: "session", entryAction: row.action, before: row.rule },
    });
    return toRow(row);
  });
}

/** The store layer's view of one workspace's session entries. */
export function sessionEntrySource(
  db: Db,
  { actorName, workspaceId }: { actorName: string; workspaceId: string },
): SessionEntrySource {
  return {
    list: () => listSessionEntries(db, { workspaceId }),
    revoke: async (id) => {
      await revokeSessionEntry(db, { actorName, workspaceId, id });
    },
  };
}
