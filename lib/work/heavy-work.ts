import type { Actor } from "@/lib/auth/actor";
import { TooManyRequestsError } from "@/lib/errors";

/**
 * Per-person limits on expensive reads (impact previews, audit verification): a rate per minute and a number
 * running at once. Anyone with a viewer role can ask for them, so one person must not be able to keep the
 * server's thread busy for everyone else.
 */
export interface HeavyWorkLimit {
  /** Shown in the 429 message: "impact previews". */
  what: string;
  perMinute: number;
  concurrent: number;
}

export const IMPACT_LIMIT: HeavyWorkLimit = { what: "impact previews", perMinute: 30, concurrent: 2 };
export const VERIFY_LIMIT: HeavyWorkLimit = { what: "audit verifications", perMinute: 6, concurrent: 1 };

type State = { windowStart: number; count: number; running: number };
// Process-wide: Next.js may load this module once per bundle.
const key = Symbol.for("permissions-cockpit.heavy-work");
function table(): Map<string, State> {
  const g = globalThis as typeof globalThis & { [key]?: Map<string, State> };
  return (g[key] ??= new Map());
}

/** Who a limit counts: a person by id (not by name), the CLI, an agent token. */
export function workKey(actor: Actor): string {
  if (actor.kind === "user") return `user:${actor.userId}`;
  if (actor.kind === "agent") return `agent:${actor.tokenId}`;
  if (actor.kind === "notification") return `notification:${actor.cardId}`;
  return "local-cli";
}

/**
 * Takes one slot for `who`, or throws 429 with Retry-After. Returns the release function (call it in `finally`).
 */
export function takeHeavyWork(limit: HeavyWorkLimit, who: string, now = Date.now()): () => void {
  const all = table();
  const id = `${limit.what}\u0000${who}`;
  let s = all.get(id);
  if (!s || now - s.windowStart >= 60_000) {
    s = { windowStart: now, count: 0, running: s?.running ?? 0 };
    all.set(id, s);
    if (all.size > 10_000) for (const [k, v] of all) if (v.running === 0 && k !== id) all.delete(k);
  }
  if (s.running >= limit.concurrent)
    throw new TooManyRequestsError(
      `${limit.what}: at most ${limit.concurrent} at once per person; wait for the running one to finish`,
      1,
    );
  if (s.count >= limit.perMinute) {
    const wait = Math.max(1, Math.ceil((s.windowStart + 60_000 - now) / 1000));
    throw new TooManyRequestsError(
      `${limit.what}: at most ${limit.perMinute} a minute per person; try again in ${wait} s`,
      wait,
    );
  }
  s.count++;
  s.running++;
  const state = s;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    state.running = Math.max(0, state.running - 1);
  };
}

/** Test helper: forget every count. */
export function resetHeavyWork(): void {
  table().clear();
}
