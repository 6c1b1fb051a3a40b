import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { auditEvents } from "@/db/schema";

/**
 * What the free-text search matches, lower-cased: an event's labels, target, rule, store, folder, input and
 * detail (each JSON capped at 2,000 characters). Over audit_events' own columns.
 */
const SEARCH_TEXT = sql.raw(
  `lower(coalesce(actor, '') || ' ' || action || ' ' || coalesce(target, '') || ' ' || coalesce(outcome, '') || ' ' || coalesce(decision_source, '') || ' ' || coalesce(rule, '') || ' ' || coalesce(store, '') || ' ' || coalesce(agent, '') || ' ' || coalesce(agent_session_id, '') || ' ' || coalesce(tool, '') || ' ' || coalesce(cwd, '') || ' ' || left(coalesce(input::text, ''), 2000) || ' ' || left(detail::text, 2000))`,
);

/** Events indexed per statement: small enough that the embedded database answers requests in between. */
export const SEARCH_BATCH = 1000;
/** How far behind a search lets the index be before it stops catching up itself and scans the rest. */
const CATCH_UP_LIMIT = 20 * SEARCH_BATCH;

const one = (r: unknown) => (r as { rows: Record<string, unknown>[] }).rows[0]!;

/**
 * Indexes up to `max` events past the last indexed one; returns how many. Appends commit in seq order (one
 * lock, held to the commit), so the indexed events are always a prefix of the log: the newest indexed seq is
 * the watermark. Two servers on one PostgreSQL may race; the loser's rows are skipped.
 */
export async function indexAuditSearch(db: DbOrTx, max = SEARCH_BATCH): Promise<number> {
  const r = await db.execute(sql`
    with added as (
      insert into audit_search (seq, text)
      select seq, ${SEARCH_TEXT} from audit_events
      where seq > (select coalesce(max(seq), 0) from audit_search)
      order by seq limit ${max}
      on conflict do nothing
      returning 1
    ) select count(*)::int as n from added`);
  return Number(one(r).n);
}

/** Runs batches until the index has caught up or `limit` events were indexed; returns how many. */
export async function catchUpAuditSearch(db: DbOrTx, limit = Infinity): Promise<number> {
  let total = 0;
  while (total < limit) {
    const n = await indexAuditSearch(db, Math.min(SEARCH_BATCH, limit - total));
    total += n;
    if (n < SEARCH_BATCH) break;
  }
  return total;
}

/** Where a search stands: caught up, or the watermark past which events are still unindexed. */
export type SearchState = { behindFrom: number | null };

/**
 * Before a search: indexes what the worker has not yet (normally the last second's events). Far behind (just
 * after an upgrade), it indexes a bounded amount and the search scans the rest, so no event is missed.
 */
export async function prepareSearch(db: DbOrTx, catchUpLimit = CATCH_UP_LIMIT): Promise<SearchState> {
  await catchUpAuditSearch(db, catchUpLimit);
  // Two backward index reads. Not `exists (… where seq > watermark)`: with the watermark a parameter the planner
  // expects a third of the table to match and scans it from the start (~0.5 s at a million events, every search).
  const r = one(
    await db.execute(sql`
      select coalesce((select max(seq) from audit_search), 0) as w,
             coalesce((select max(seq) from audit_events), 0) as head`),
  );
  return { behindFrom: Number(r.head) > Number(r.w) ? Number(r.w) : null };
}

/** `%` and `_` in the user's text match themselves. */
function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The word of a several-word search the trigram index looks up: the longest one (the last of equals), at least 3
 * characters. "npm run task-4242" looks up "task-4242": the trigrams of "npm" and "run" are in most events, and the
 * index would read all of them (~3× the time at a million events); each candidate is then checked for the whole text.
 */
export function indexedWord(q: string): string | null {
  const words = q.split(/\s+/).filter(Boolean);
  if (words.length < 2) return null;
  const longest = words.reduce((a, b) => (b.length >= a.length ? b : a));
  return longest.length >= 3 ? longest : null;
}

/** The free-text condition on audit_events: the indexed events by the trigram index, any unindexed rest by a scan. */
export function searchCondition(q: string, state: SearchState): SQL {
  const lower = q.toLowerCase();
  const pattern = `%${likeEscape(lower)}%`;
  const word = indexedWord(lower);
  // strpos is not indexable, so the index is used for the word alone and the whole text filters its candidates.
  const match = word
    ? sql`s.text like ${`%${likeEscape(word)}%`} and strpos(s.text, ${lower}) > 0`
    : sql`s.text like ${pattern}`;
  const indexed = sql`${auditEvents.seq} in (select s.seq from audit_search s where ${match})`;
  if (state.behindFrom === null) return indexed;
  return sql`(${indexed} or (${auditEvents.seq} > ${state.behindFrom} and ${SEARCH_TEXT} like ${pattern}))`;
}
