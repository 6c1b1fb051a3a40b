/** Per-client failure counter with exponential lockout, for guessable endpoints such as login. */
class Throttle {
  private readonly failures = new Map<string, { count: number; until: number }>();
  constructor(
    private readonly freeAttempts = 10,
    private readonly baseMs = 1000,
    private readonly maxMs = 60_000,
  ) {}

  /** Milliseconds the client must still wait (0 = may try now). */
  check(client: string, now = Date.now()): number {
    const entry = this.failures.get(client);
    return entry && entry.until > now ? entry.until - now : 0;
  }

  fail(client: string, now = Date.now()): void {
    const entry = this.failures.get(client) ?? { count: 0, until: 0 };
    entry.count += 1;
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
