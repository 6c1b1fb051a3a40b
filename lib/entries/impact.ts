import "server-only";
import { and, desc, eq, gte, inArray, isNotNull, notLike, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, DbOrTx } from "@/db/client";
import { auditEvents } from "@/db/schema";
import { apiEvent } from "@/lib/audit/query";
import { actorLabel, type Actor } from "@/lib/auth/actor";
import { rulesAgentOf } from "@/lib/agents";
import { UnprocessableError, NotFoundError } from "@/lib/errors";
import { type Decision, type Rule } from "@/lib/policy";
import { decideWith, loadPolicy, type PolicySnapshot } from "@/lib/agents/shared/ladder-snapshot";
import { listEntries, type Entry } from "@/lib/stores";
import type { PolicyInputs } from "@/lib/stores/load-policy-inputs";
import { narrowedRule } from "@/lib/stores/narrow-entry";
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

/** The same source test everywhere: a rule is the entry when its text and store match. */
const isEntry = (entry: Entry) => (r: Rule) => r.text === entry.rule && r.source.store === entry.store.path;

/**
 * "What would break?" Replays the last 30 days of logged calls this entry decided through the current
 * policy twice — as it is, and with the entry removed (revoke) or replaced by `to` (narrow) — and
 * lists the calls whose decision changes. `replayed` counts every call replayed.
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
  const listing = await withStoreErrors(() => listEntries({ ...paths, sessionRows }));
  const entry = listing.entries.find((e) => e.id === args.id);
  if (!entry) throw new NotFoundError(`no entry ${args.id} in this workspace (refresh: the file may have changed)`);
  if (entry.kind !== "rule") return { replayed: 0, truncated: false, note: null, changed: [] };

  const snapshot = await loadPolicy({
    paths,
    agent: entry.agent,
    sessionRows,
    sessionId: entry.agentSessionId,
  });
  const inputs = snapshot.inputs;
  let replacement: Rule | null = null;
  if (args.to) {
    // The same planning a narrow save uses: "ask"/"deny", a new rule text, or a mevedel modifier.
    try {
      replacement = (await narrowedRule({ ...paths, id: entry.id, to: args.to })) ?? null;
    } catch (error) {
      throw new UnprocessableError(`the narrower entry does not parse: ${(error as Error).message}`);
    }
    if (!replacement) throw new UnprocessableError("the narrower entry is not a rule");
  }
  const swap = (rules: Rule[]) => rules.flatMap((r) => (isEntry(entry)(r) ? (replacement ? [replacement] : []) : [r]));
  const changedInputs: PolicyInputs = { ...inputs, rules: swap(inputs.rules), sessionRules: swap(inputs.sessionRules) };

  const rows = await decidedBy(db, workspace.id, entry.rule, new Date(now.getTime() - IMPACT_DAYS * 86400_000));
  const changedSnapshot: PolicySnapshot = { ...snapshot, inputs: changedInputs };
  const changed: EntryImpact["changed"] = [];
  // Each replay decides twice on the server's one thread: yield between batches, stop at the budget.
  const pace = pacer({ budget, signal, onYield });
  for (const row of rows) {
    if (!row.tool || !row.input || rulesAgentOf(row.agent ?? "") !== entry.agent) continue;
    if (!(await pace.next())) break;
    const mode = typeof row.detail.mode === "string" ? row.detail.mode : null;
    const call = { tool: row.tool, input: row.input };
    const before = verdict(decideWith(snapshot, { call, mode, cwd: row.cwd }).decision);
    const after = verdict(decideWith(changedSnapshot, { call, mode, cwd: row.cwd }).decision);
    if (before.decision !== after.decision) changed.push({ event: apiEvent(row), before, after });
  }
  const note =
    truncationNote(pace, budget, "call") ??
    (rows.length >= IMPACT_MAX_EVENTS ? `only the newest ${IMPACT_MAX_EVENTS} logged calls were read` : null);
  return { replayed: pace.done, truncated: note !== null, note, changed };
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
