import { env } from "@/lib/config/env";
import { clientKey } from "./client-key";

/**
 * Per-client failure counter with exponential lockout, for guessable endpoints such as login. A success never
 * resets it (a valid token always works, but does not buy a guesser a fresh allowance); a key forgets its failures
 * after `forgetMs` without one.
 */
class Throttle {
  private readonly failures = new Map<string, { count: number; until: number; last: number }>();
  constructor(
    private readonly freeAttempts = 10,
    private readonly baseMs = 1000,
    private readonly maxMs = 60_000,
    private readonly forgetMs = 3600_000,
  ) {}

  /** Milliseconds the client must still wait (0 = may try now). */
  check(client: string, now = Date.now()): number {
    const entry = this.failures.get(client);
    return entry && entry.until > now ? entry.until - now : 0;
  }

  fail(client: string, now = Date.now()): void {
    let entry = this.failures.get(client);
    if (!entry || now - entry.last > this.forgetMs) entry = { count: 0, until: 0, last: now };
    entry.count += 1;
    entry.last = now;
    const over = entry.count - this.freeAttempts;
    entry.until = over > 0 ? now + Math.min(this.maxMs, this.baseMs * 2 ** (over - 1)) : 0;
    this.failures.set(client, entry);
    if (this.failures.size > 10_000) this.failures.clear();
  }

  reset(client: string): void {
    this.failures.delete(client);
  }
}

export const loginThrottle = new Throttle();

/** Fixed-window request limit (answers, passkey ceremonies): at most `max` per `windowMs` per key. */
export class RateLimit {
  private readonly windows = new Map<string, { start: number; count: number }>();
  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** Counts one request; returns the milliseconds to wait when over the limit (0 = allowed). */
  hit(key: string, now = Date.now()): number {
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
      if (this.windows.size > 10_000) this.windows.clear();
    }
    w.count += 1;
    return w.count > this.max ? w.start + this.windowMs - now : 0;
  }
}

/** Invite acceptance: guessing is refused after 10 failures per client address (exponential lockout). */
export const inviteThrottle = new Throttle();
/** Answers: 120 a minute per person and per client address (push-bombing and scripted-answer guard). */
export const answerLimit = new RateLimit(120, 60_000);
/** Passkey ceremonies (options + verify): 30 a minute per client address and per person. */
export const passkeyLimit = new RateLimit(30, 60_000);

/**
 * The key a client's address is counted under: the socket address (or, behind a trusted proxy, the
 * proxy's last X-Forwarded-For entry); see lib/http/client-key.ts. A client cannot pick its own key.
 */
export function clientAddress(headers: Headers): string {
  return clientKey(headers, env().COCKPIT_TRUST_PROXY);
}
