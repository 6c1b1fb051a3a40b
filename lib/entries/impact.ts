import "server-only";
import { and, desc, eq, gte, inArray, isNotNull, notLike, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, DbOrTx } from "@/db/client";
import { auditEvents } from "@/db/schema";
import { apiEvent } from "@/lib/audit/query";
import { actorLabel, type Actor } from "@/lib/auth/actor";
import { rulesAgentOf } from "@/lib/agents";
import { editEntry, listAllEntries } from "@/lib/agents/all-stores";
import { engineOf } from "@/lib/agents/registry";
import type { AgentSnapshot } from "@/lib/agents/types";
import { AppError, NotFoundError, UnprocessableError, ValidationError } from "@/lib/errors";
import type { Decision } from "@/lib/policy";
import type { Entry, StorePaths } from "@/lib/stores";
import { withStoreOverlay } from "@/lib/stores/overlay";
import { isSessionEntryId, SESSION_ID_PREFIX, type SessionEntryRow } from "@/lib/stores/session";
import { requireCan } from "@/lib/auth/access";
import { IMPACT_LIMIT, takeHeavyWork, workKey } from "@/lib/work/heavy-work";
import { pacer, truncationNote, type WorkBudget } from "@/lib/work/pace";
import { withStoreErrors, workspaceStores } from "./context";

export const EntryImpactInput = z.object({
  workspace: z.string().min(1),
  id: z.string().min(1).max(200),
  /** The narrower rule text a narrow would write; without it the preview is for a revoke. */
  to: z.string().trim().min(1).max(10_000).optional(),
});
export type EntryImpactInput = z.infer<typeof EntryImpactInput>;

/** How far back the preview replays, and how many logged calls it reads at most. */
export const IMPACT_DAYS = 30;
export const IMPACT_MAX_EVENTS = 2000;
/**
 * The work one preview may do: agent-seeded calls can be long and a store can hold thousands of rules, so the
 * replay stops after this many calls or this much time and says so ("truncated after N calls").
 */
export const IMPACT_BUDGET: WorkBudget = { units: 1000, ms: 5000 };

/** Event types that record a call some rule decided (a person's answers are not the entry's doing). */
const DECISION_TYPES = [
  "card.decided_by_rules",
  "card.coalesced",
  "card.resolved",
  "agent.decision",
  "agent.post_tool_use",
  "agent.pre_tool_use",
];

type Verdict = { decision: Decision["decision"]; step: string; rule: string | null; reason: string };
const verdict = (d: Decision): Verdict => ({ decision: d.decision, step: d.step, rule: d.rule, reason: d.reason });

/**
 * "What would break?" Replays the last 30 days of logged calls this entry decided through the current
 * policy twice — as it is, and with the entry removed (revoke) or replaced by `to` (narrow) — and
 * lists the calls whose decision changes. `replayed` counts every call replayed. Any agent's entry: the "after"
 * policy is the agent's own edit (kept in memory) read by the agent's own engine (`policyAfter`).
 */
export async function entryImpact({
  db,
  actor,
  input,
  now = new Date(),
  budget = IMPACT_BUDGET,
  signal,
  onYield,
}: {
  db: Db;
  actor: Actor;
  input: EntryImpactInput;
  now?: Date;
  budget?: WorkBudget;
  /** The request's signal: a preview nobody waits for any more stops at the next batch. */
  signal?: AbortSignal;
  onYield?: () => void;
}): Promise<EntryImpact> {
  const args = EntryImpactInput.parse(input);
  requireCan(actor, "entry.view", args.workspace);
  const release = takeHeavyWork(IMPACT_LIMIT, workKey(actor));
  try {
    return await replayImpact({ db, actor, args, now, budget, signal, onYield });
  } finally {
    release();
  }
}

export interface EntryImpact {
  replayed: number;
  /** True when the replay stopped early (the read limit or the work budget); `note` says why. */
  truncated: boolean;
  /** "truncated after N calls (work budget: …)", or null when every logged call was replayed. */
  note: string | null;
  changed: { event: ReturnType<typeof apiEvent>; before: Verdict; after: Verdict }[];
}

async function replayImpact({
  db,
  actor,
  args,
  now,
  budget,
  signal,
  onYield,
}: {
  db: Db;
  actor: Actor;
  args: EntryImpactInput;
  now: Date;
  budget: WorkBudget;
  signal?: AbortSignal;
  onYield?: () => void;
}): Promise<EntryImpact> {
  const { workspace, paths, sessionSource } = await workspaceStores(db, actorLabel(actor), args.workspace);
  const sessionRows = await sessionSource.list();
  // Every agent's entries, through the registry: the preview is the agent's own edit and its own engine.
  const listing = await withStoreErrors(() => listAllEntries({ ...paths, sessionRows }));
  const entry = listing.entries.find((e) => e.id === args.id);
  if (!entry) throw new NotFoundError(`no entry ${args.id} in this workspace (refresh: the file may have changed)`);
  if (entry.kind !== "rule") return { replayed: 0, truncated: false, note: null, changed: [] };

  const engine = await engineOf(rulesAgentOf(entry.agent));
  const load = (rows: typeof sessionRows) =>
    engine.load({ paths, sessionRows: rows, ...(entry.agentSessionId ? { sessionId: entry.agentSessionId } : {}) });
  const snapshot = await load(sessionRows);
  const changedSnapshot = await policyAfter(entry, args.to, paths, sessionRows, load);
  const rows = await decidedBy(db, workspace.id, entry.rule, new Date(now.getTime() - IMPACT_DAYS * 86400_000));
  const changed: EntryImpact["changed"] = [];
  // Each replay decides twice on the server's one thread: yield between batches, stop at the budget.
  const pace = pacer({ budget, signal, onYield });
  for (const row of rows) {
    if (!row.tool || !row.input || rulesAgentOf(row.agent ?? "") !== entry.agent) continue;
    if (!(await pace.next())) break;
    const mode = typeof row.detail.mode === "string" ? row.detail.mode : null;
    const call = { tool: row.tool, input: row.input };
    const before = verdict(snapshot.decide({ call, mode, cwd: row.cwd }).decision);
    const after = verdict(changedSnapshot.decide({ call, mode, cwd: row.cwd }).decision);
    if (before.decision !== after.decision) changed.push({ event: apiEvent(row), before, after });
  }
  const note =
    truncationNote(pace, budget, "call") ??
    (rows.length >= IMPACT_MAX_EVENTS ? `only the newest ${IMPACT_MAX_EVENTS} logged calls were read` : null);
  return { replayed: pace.done, truncated: note !== null, note, changed };
}

/**
 * The policy as it would be after the edit: the agent's own revoke or narrow (its proof, its in-place edit), with the
 * write kept in memory (lib/stores/overlay.ts), then the agent's own engine reading its stores as edited. A session
 * entry (a database row) is left out, or replaced by the narrower rule text.
 */
async function policyAfter(
  entry: Entry,
  to: string | undefined,
  paths: StorePaths,
  sessionRows: SessionEntryRow[],
  load: (rows: SessionEntryRow[]) => Promise<AgentSnapshot>,
): Promise<AgentSnapshot> {
  if (isSessionEntryId(entry.id)) {
    const rowId = entry.id.slice(SESSION_ID_PREFIX.length);
    return load(sessionRows.flatMap((r) => (r.id !== rowId ? [r] : to ? [{ ...r, rule: to }] : [])));
  }
  const target = { ...paths, id: entry.id, expectedVersion: entry.store.version };
  return withStoreOverlay(new Map(), async () => {
    try {
      await editEntry(target, (stores) => (to ? stores.narrow({ ...target, to }) : stores.revoke(target)));
    } catch (error) {
      // A SPEC that does not parse is invalid input (400, ADR 0007); a well-formed one the store refuses is 422.
      if (to && error instanceof AppError && error.code === "invalid_request")
        throw new ValidationError(`the narrower entry does not apply: ${error.message}`, error.details);
      if (
        to &&
        error instanceof AppError &&
        error.status < 500 &&
        error.code !== "not_found" &&
        error.code !== "conflict"
      )
        throw new UnprocessableError(`the narrower entry does not apply: ${error.message}`);
      throw error;
    }
    return load(sessionRows);
  });
}

/** The newest logged calls (at most IMPACT_MAX_EVENTS) whose deciding rule is `rule`, since `since`. */
async function decidedBy(db: DbOrTx, workspaceId: string, rule: string, since: Date) {
  const t = auditEvents;
  return db
    .select()
    .from(t)
    .where(
      and(
        eq(t.workspaceId, workspaceId),
        sql`md5(${t.rule}) = md5(${rule})`,
        eq(t.rule, rule),
        gte(t.at, since),
        inArray(t.action, DECISION_TYPES),
        isNotNull(t.tool),
      ),
    )
    .orderBy(desc(t.seq))
    .limit(IMPACT_MAX_EVENTS);
}

/**
 * Rule usage for the Rules page: per rule text, how many logged calls it decided and when it last did
 * (one aggregate over the (workspace, md5(rule)) index; edits of the entry itself don't count).
 */
export async function ruleUsage(
  db: DbOrTx,
  workspaceId: string,
  rules: string[],
): Promise<Map<string, { count: number; lastUsed: string }>> {
  const unique = [...new Set(rules)];
  const out = new Map<string, { count: number; lastUsed: string }>();
  if (!unique.length) return out;
  const t = auditEvents;
  const rows = await db
    .select({ rule: t.rule, n: sql<number>`count(*)::int`, last: sql<Date>`max(${t.at})` })
    .from(t)
    .where(
      and(
        eq(t.workspaceId, workspaceId),
        sql`md5(${t.rule}) in (${sql.join(
          unique.map((r) => sql`md5(${r})`),
          sql`, `,
        )})`,
        notLike(t.action, "entry.%"),
      ),
    )
    .groupBy(t.rule);
  for (const r of rows)
    if (r.rule) out.set(r.rule, { count: Number(r.n), lastUsed: new Date(r.last as unknown as string).toISOString() });
  return out;
}
