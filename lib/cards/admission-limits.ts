import "server-only";
import { and, count, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { cards } from "@/db/schema";
import { env } from "@/lib/config/env";
import { TooManyRequestsError } from "@/lib/errors";

/** What one agent token may do: pending cards at once, and admissions as a token bucket. */
export interface AdmissionLimits {
  maxPending: number;
  perMinute: number;
  burst: number;
}

export function admissionLimitsFromEnv(): AdmissionLimits {
  const e = env();
  return {
    maxPending: e.COCKPIT_MAX_PENDING_PER_TOKEN,
    perMinute: e.COCKPIT_ADMISSIONS_PER_MINUTE,
    burst: e.COCKPIT_ADMISSION_BURST,
  };
}

type Bucket = { tokens: number; at: number };
// Process-wide (Next.js may load this module once per bundle); one server process owns the database.
const bucketsKey = Symbol.for("permissions-cockpit.admission-buckets");
function buckets(): Map<string, Bucket> {
  const g = globalThis as typeof globalThis & { [bucketsKey]?: Map<string, Bucket> };
  return (g[bucketsKey] ??= new Map());
}

/**
 * Take one admission from the token's bucket (refilled continuously at `perMinute`, holding at most
 * `burst`), or throw 429 with the seconds until the next admission is possible.
 */
export function takeAdmission(tokenId: string, limits: AdmissionLimits, now = Date.now()): void {
  const all = buckets();
  const perMs = limits.perMinute / 60_000;
  const bucket = all.get(tokenId) ?? { tokens: limits.burst, at: now };
  bucket.tokens = Math.min(limits.burst, bucket.tokens + (now - bucket.at) * perMs);
  bucket.at = now;
  if (bucket.tokens < 1) {
    all.set(tokenId, bucket);
    const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000));
    throw new TooManyRequestsError(
      `this agent token asks too often (at most ${limits.perMinute} cards a minute, bursts of ${limits.burst}); retry in ${retryAfter} s`,
      retryAfter,
    );
  }
  bucket.tokens -= 1;
  all.set(tokenId, bucket);
  if (all.size > 10_000) all.clear();
}

/** Refuse a new pending card when the token already holds `maxPending` of them. */
export async function assertPendingRoom(db: DbOrTx, tokenId: string, limits: AdmissionLimits): Promise<void> {
  const [row] = await db
    .select({ n: count() })
    .from(cards)
    .where(and(eq(cards.agentTokenId, tokenId), eq(cards.status, "pending")));
  if ((row?.n ?? 0) >= limits.maxPending)
    throw new TooManyRequestsError(
      `this agent token already has ${limits.maxPending} pending cards; answer or expire some first`,
      30,
    );
}
