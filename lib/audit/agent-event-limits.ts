import "server-only";
import { and, count, eq, gte, like } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { auditEvents } from "@/db/schema";
import { env } from "@/lib/config/env";
import { TooManyRequestsError } from "@/lib/errors";

/**
 * What one agent token may write to the audit log (`POST /api/agent/v1/events`, Claude Code's PreToolUse and
 * PostToolUse hooks): events per minute as a token bucket, and a cap per UTC day. Without them one token filled
 * the log with 10,000 events in 14 s, burying what a person needs to find and growing the database without bound.
 */
export interface AgentEventLimits {
  perMinute: number;
  /** The bucket's size: one full batch (500 events) must fit. */
  burst: number;
  perDay: number;
}

export function agentEventLimitsFromEnv(): AgentEventLimits {
  const e = env();
  return {
    perMinute: e.COCKPIT_AGENT_EVENTS_PER_MINUTE,
    burst: Math.max(e.COCKPIT_AGENT_EVENTS_PER_MINUTE, 500),
    perDay: e.COCKPIT_AGENT_EVENTS_PER_DAY,
  };
}

type State = { tokens: number; at: number; day: string; today: number | null };
// Process-wide: Next.js may load this module once per bundle.
const key = Symbol.for("permissions-cockpit.agent-event-limits");
function table(): Map<string, State> {
  const g = globalThis as typeof globalThis & { [key]?: Map<string, State> };
  return (g[key] ??= new Map());
}

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Events this token already wrote today, read once per token and day (a restart does not reset the cap). */
async function writtenToday(db: DbOrTx, tokenId: string, day: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(auditEvents)
    .where(
      and(
        gte(auditEvents.at, new Date(`${day}T00:00:00.000Z`)),
        eq(auditEvents.actorId, tokenId),
        like(auditEvents.action, "agent.%"),
      ),
    );
  return Number(row?.n ?? 0);
}

/**
 * Takes `n` events from the token's allowance, or throws 429 with the seconds until they fit (the rest of the
 * UTC day when the daily cap is spent). All or nothing: a refused batch records none of its events.
 */
export async function takeAgentEvents(
  db: DbOrTx,
  tokenId: string,
  n: number,
  limits: AgentEventLimits = agentEventLimitsFromEnv(),
  now = Date.now(),
): Promise<void> {
  const all = table();
  const day = utcDay(now);
  let s = all.get(tokenId);
  if (!s || s.day !== day) {
    s = { tokens: s?.tokens ?? limits.burst, at: s?.at ?? now, day, today: null };
    all.set(tokenId, s);
    if (all.size > 10_000) for (const [k, v] of all) if (v.day !== day) all.delete(k);
  }
  s.today ??= await writtenToday(db, tokenId, day);
  if (s.today + n > limits.perDay) {
    const midnight = Date.parse(`${day}T00:00:00.000Z`) + 86_400_000;
    throw new TooManyRequestsError(
      `this agent token has written ${s.today} audit events today (at most ${limits.perDay} a day); more are refused until 00:00 UTC`,
      Math.max(1, Math.ceil((midnight - now) / 1000)),
    );
  }
  const perMs = limits.perMinute / 60_000;
  s.tokens = Math.min(limits.burst, s.tokens + (now - s.at) * perMs);
  s.at = now;
  if (s.tokens < n) {
    const wait = Math.max(1, Math.ceil((n - s.tokens) / perMs / 1000));
    throw new TooManyRequestsError(
      `this agent token reports too many audit events (at most ${limits.perMinute} a minute); retry in ${wait} s`,
      wait,
    );
  }
  s.tokens -= n;
  s.today += n;
}

/** Test helper: forget every token's allowance. */
export function resetAgentEventLimits(): void {
  table().clear();
}
