import type { IncomingHttpHeaders } from "node:http";

export type Verdict =
  | { kind: "delivered" }
  | { kind: "retry"; minDelayMs?: number }
  | { kind: "give-up"; reason: string }
  | { kind: "gone"; reason: string };

/** Seconds or an HTTP date, as Retry-After allows; capped at a day. */
export function retryAfterMs(headers: IncomingHttpHeaders, nowMs: number): number | undefined {
  const raw = headers["retry-after"];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) return undefined;
  const ms = /^\d+$/.test(value.trim()) ? Number(value) * 1000 : Date.parse(value) - nowMs;
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, 86_400_000) : undefined;
}

/** Standard Webhooks' reading of a receiver's answer. */
export function classifyStatus(status: number, headers: IncomingHttpHeaders, nowMs: number): Verdict {
  if (status >= 200 && status < 300) return { kind: "delivered" };
  if (status === 410) return { kind: "gone", reason: "the receiver answered 410 Gone" };
  if (status >= 300 && status < 400) return { kind: "give-up", reason: `redirect (${status}) not followed` };
  if (status === 408 || status === 429 || status >= 500)
    return { kind: "retry", minDelayMs: retryAfterMs(headers, nowMs) };
  return { kind: "give-up", reason: `the receiver refused with ${status}` };
}

/** Delay before the next attempt after `attemptsMade` attempts, ±10 % jitter; null when the schedule is used up. */
export function nextDelayMs(
  attemptsMade: number,
  schedule: number[],
  random: () => number,
  minDelayMs = 0,
): number | null {
  const base = schedule[attemptsMade - 1];
  if (base === undefined) return null;
  const jittered = base * 1000 * (0.9 + 0.2 * random());
  return Math.max(Math.round(jittered), minDelayMs);
}
