import "server-only";
import { and, desc, eq, gte, inArray, isNotNull, isNull, like, lt, lte, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "@/db/client";
import { auditEvents } from "@/db/schema";
import type { Actor } from "@/lib/auth/actor";
import { auditVisibility, requireWorkspaceVisible, type AuditVisibility } from "./access";
import { DECISION_SOURCES } from "./events";
import { prepareSearch, searchCondition, type SearchState } from "./search-index";

/** An empty URL parameter (`?tool=`) means no filter. */
const blank = (v: unknown) => (typeof v === "string" && !v.trim() ? undefined : v);
const text = (max: number) => z.preprocess(blank, z.string().trim().max(max).optional());
const time = z.preprocess(
  blank,
  z
    .string()
    .trim()
    .refine((s) => !Number.isNaN(Date.parse(s)), "not a date (use ISO-8601, e.g. 2026-05-01T00:00:00Z)")
    .transform((s) => new Date(s))
    .optional(),
);

/** The filters of the audit timeline, its export and its chart; all live in the page's URL too. */
export const AuditFilters = z.object({
  workspace: text(300),
  /** An event type (`card.resolved`) or a group (`card.*`). */
  type: z.preprocess(
    blank,
    z
      .string()
      .trim()
      .regex(/^[a-z_]+(\.[a-z_]+|\.\*)?$/, "an event type like card.resolved or card.*")
      .optional(),
  ),
  outcome: text(50),
  source: z.preprocess(blank, z.enum(DECISION_SOURCES).optional()),
  agent: text(100),
  agentSession: text(300),
  tool: text(300),
  /** The actor's display label (a person's name, local-cli, agent:NAME). */
  actor: text(300),
  /** Free text: matched case-insensitively anywhere in the event's searchable text. */
  q: text(200),
  from: time,
  to: time,
  /**
   * What `from`/`to` compare: `recorded` (default, when the cockpit wrote the row) or `occurred` (when it happened:
   * the original time an imported agent log gave, `detail.occurredAt`, else the recorded time).
   */
  timeOf: z.preprocess(blank, z.enum(["recorded", "occurred"]).optional()),
});
export type AuditFilters = z.infer<typeof AuditFilters>;

export const AuditPageQuery = AuditFilters.extend({
  /** The `next` of the previous page: events with a smaller seq. */
  cursor: z.preprocess(
    blank,
    z
      .string()
      .regex(/^\d{1,15}$/, "a cursor is the `next` value of the previous page")
      .transform(Number)
      .optional(),
  ),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type AuditPageQuery = z.infer<typeof AuditPageQuery>;

/** The WHERE clause for a visibility and a set of filters (the same for the page, the export and the chart). */
export function auditWhere(
  v: AuditVisibility,
  f: AuditFilters,
  cursor?: number,
  search: SearchState = { behindFrom: null },
): SQL | undefined {
  const t = auditEvents;
  const parts: (SQL | undefined)[] = [];
  if (v.workspaceIds !== "all") {
    const ws = v.workspaceIds.length ? inArray(t.workspaceId, v.workspaceIds) : sql`false`;
    const machine = and(isNull(t.workspaceId), like(t.action, "entry.%"));
    parts.push(v.global ? or(ws, isNull(t.workspaceId)) : v.machineEntries ? or(ws, machine) : ws);
  } else if (!v.global)
    parts.push(v.machineEntries ? or(isNotNull(t.workspaceId), like(t.action, "entry.%")) : isNotNull(t.workspaceId));
  if (f.workspace) parts.push(eq(t.workspaceId, f.workspace));
  if (f.type) parts.push(f.type.endsWith(".*") ? like(t.action, `${f.type.slice(0, -1)}%`) : eq(t.action, f.type));
  if (f.outcome) parts.push(eq(t.outcome, f.outcome));
  if (f.source) parts.push(eq(t.decisionSource, f.source));
  if (f.agent) parts.push(eq(t.agent, f.agent));
  if (f.agentSession) parts.push(eq(t.agentSessionId, f.agentSession));
  if (f.tool) parts.push(eq(t.tool, f.tool));
  if (f.actor) parts.push(eq(t.actor, f.actor));
  if (f.q) parts.push(searchCondition(f.q, search));
  if (f.timeOf === "occurred") {
    const when = sql`coalesce((${t.detail}->>'occurredAt')::timestamptz, ${t.at})`;
    if (f.from) parts.push(sql`${when} >= ${f.from.toISOString()}::timestamptz`);
    if (f.to) parts.push(sql`${when} <= ${f.to.toISOString()}::timestamptz`);
  } else {
    if (f.from) parts.push(gte(t.at, f.from));
    if (f.to) parts.push(lte(t.at, f.to));
  }
  if (cursor !== undefined) parts.push(lt(t.seq, cursor));
  return and(...parts.filter(Boolean));
}

type Row = typeof auditEvents.$inferSelect;

/** The API's view of one event (stable field names; see docs/audit.md). */
export function apiEvent(r: Row) {
  return {
    seq: Number(r.seq),
    at: r.at.toISOString(),
    type: r.action,
    workspace: r.workspaceId,
    actor: {
      label: r.actor,
      type: r.actorType,
      id: r.actorId,
      role: r.actorRole,
      session: r.actorSession,
      channel: r.actorChannel,
      address: r.actorAddress,
    },
    target: r.target,
    outcome: r.outcome,
    source: r.decisionSource,
    rule: r.rule,
    store: r.store,
    agent: r.agent,
    agentSession: r.agentSessionId,
    toolUseId: r.toolUseId,
    cwd: r.cwd,
    tool: r.tool,
    input: r.input,
    detail: r.detail,
    hash: r.hash,
  };
}
export type ApiAuditEvent = ReturnType<typeof apiEvent>;

/** The columns of an event. */
function selectColumns() {
  const t = auditEvents;
  return {
    seq: t.seq,
    at: t.at,
    workspaceId: t.workspaceId,
    actor: t.actor,
    actorType: t.actorType,
    actorId: t.actorId,
    actorRole: t.actorRole,
    actorSession: t.actorSession,
    actorChannel: t.actorChannel,
    actorAddress: t.actorAddress,
    action: t.action,
    target: t.target,
    outcome: t.outcome,
    decisionSource: t.decisionSource,
    rule: t.rule,
    store: t.store,
    agent: t.agent,
    agentSessionId: t.agentSessionId,
    toolUseId: t.toolUseId,
    cwd: t.cwd,
    tool: t.tool,
    input: t.input,
    detail: t.detail,
    prevHash: t.prevHash,
    hash: t.hash,
  };
}

/** One page of rows, newest first, after `cursor` (keyset on seq). */
export async function auditRows(db: DbOrTx, v: AuditVisibility, f: AuditFilters, limit: number, cursor?: number) {
  const search = f.q ? await prepareSearch(db) : undefined;
  const rows = await db
    .select(selectColumns())
    .from(auditEvents)
    .where(auditWhere(v, f, cursor, search))
    .orderBy(desc(auditEvents.seq))
    .limit(limit);
  return rows as Row[];
}

/** A page of the timeline for a person: `{events, next}`; `next` is null on the last page. */
export async function listAuditEvents(
  db: DbOrTx,
  actor: Actor,
  query: AuditPageQuery,
): Promise<{ events: ApiAuditEvent[]; next: string | null }> {
  const v = await auditVisibility(db, actor);
  requireWorkspaceVisible(v, query.workspace);
  // One more than asked tells whether another page exists without a count.
  const rows = await auditRows(db, v, query, query.limit + 1, query.cursor);
  const page = rows.slice(0, query.limit);
  const next = rows.length > query.limit ? String(Number(page.at(-1)!.seq)) : null;
  return { events: page.map(apiEvent), next };
}

export const EXPORT_COLUMNS = [
  "seq",
  "at",
  "type",
  "workspace",
  "actor",
  "actor_type",
  "actor_id",
  "actor_role",
  "actor_channel",
  "actor_address",
  "target",
  "outcome",
  "source",
  "rule",
  "store",
  "agent",
  "agent_session",
  "tool_use_id",
  "cwd",
  "tool",
  "input",
  "detail",
  "hash",
] as const;

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF, or edge spaces; quotes doubled.
 * A field a spreadsheet would run as a formula (= + - @, tab, CR first) gets a leading `'`.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return "";
  let s = typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(s) && !/^-?\d+(\.\d+)?$/.test(s)) s = `'${s}`;
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function csvLine(e: ApiAuditEvent): string {
  const values: unknown[] = [
    e.seq,
    e.at,
    e.type,
    e.workspace,
    e.actor.label,
    e.actor.type,
    e.actor.id,
    e.actor.role,
    e.actor.channel,
    e.actor.address,
    e.target,
    e.outcome,
    e.source,
    e.rule,
    e.store,
    e.agent,
    e.agentSession,
    e.toolUseId,
    e.cwd,
    e.tool,
    e.input,
    e.detail,
    e.hash,
  ];
  return values.map(csvField).join(",") + "\r\n";
}

export const EXPORT_BATCH = 1000;

/**
 * Streams the filtered set, newest first, in batches of EXPORT_BATCH by cursor: memory stays at one
 * batch however large the log. CSV has a header row; JSONL is one event per line.
 */
export async function exportAuditStream(
  db: DbOrTx,
  actor: Actor,
  filters: AuditFilters,
  format: "csv" | "jsonl",
): Promise<ReadableStream<Uint8Array>> {
  const v = await auditVisibility(db, actor);
  requireWorkspaceVisible(v, filters.workspace);
  const encoder = new TextEncoder();
  let cursor: number | undefined;
  let started = false;
  let done = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (done) return;
      let out = "";
      if (!started && format === "csv") out += EXPORT_COLUMNS.join(",") + "\r\n";
      started = true;
      const rows = await auditRows(db, v, filters, EXPORT_BATCH, cursor);
      for (const r of rows) {
        const e = apiEvent(r);
        out += format === "csv" ? csvLine(e) : JSON.stringify(e) + "\n";
      }
      if (rows.length) cursor = Number(rows.at(-1)!.seq);
      if (out) controller.enqueue(encoder.encode(out));
      if (rows.length < EXPORT_BATCH) {
        done = true;
        controller.close();
      }
    },
  });
}

/** Bucket widths the chart offers, in seconds. */
const WIDTHS = [60, 300, 900, 3600, 3 * 3600, 6 * 3600, 86400, 7 * 86400];

/**
 * Decisions over time by outcome: counts of events that carry an outcome, per time bucket. The range is
 * the filter's from/to (default: the last 7 days); the width is chosen so there are at most `buckets`.
 */
export async function auditHistogram(
  db: DbOrTx,
  actor: Actor,
  filters: AuditFilters,
  buckets = 48,
  now = new Date(),
): Promise<{
  from: string;
  to: string;
  width: number;
  buckets: { start: string; counts: Record<string, number> }[];
}> {
  const v = await auditVisibility(db, actor);
  requireWorkspaceVisible(v, filters.workspace);
  const to = filters.to ?? now;
  const from = filters.from ?? new Date(to.getTime() - 7 * 86400_000);
  const span = Math.max(1, (to.getTime() - from.getTime()) / 1000);
  const width = WIDTHS.find((w) => span / w <= buckets) ?? Math.ceil(span / buckets);
  const start = Math.floor(from.getTime() / 1000 / width) * width;
  const search = filters.q ? await prepareSearch(db) : undefined;
  const where = and(auditWhere(v, { ...filters, from, to }, undefined, search), isNotNull(auditEvents.outcome));
  // Literal numbers (not parameters), so GROUP BY 1 names the same expression.
  const bucket = sql<number>`floor((extract(epoch from ${auditEvents.at}) - ${sql.raw(String(start))}) / ${sql.raw(String(width))})::int`;
  const rows = await db
    .select({ bucket, outcome: auditEvents.outcome, n: sql<number>`count(*)::int` })
    .from(auditEvents)
    .where(where)
    .groupBy(sql`1, 2`);
  const count = Math.max(1, Math.ceil((to.getTime() / 1000 - start) / width));
  const out = Array.from({ length: count }, (_, i) => ({
    start: new Date((start + i * width) * 1000).toISOString(),
    counts: {} as Record<string, number>,
  }));
  for (const r of rows) {
    const b = out[Number(r.bucket)];
    if (b && r.outcome) b.counts[r.outcome] = (b.counts[r.outcome] ?? 0) + Number(r.n);
  }
  return { from: from.toISOString(), to: to.toISOString(), width, buckets: out };
}
