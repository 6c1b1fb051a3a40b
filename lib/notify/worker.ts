import type { Db } from "@/db/client";
import { subscribeCardChanges } from "@/lib/cards/bus";
import { attemptDelivery } from "./deliver";
import { claimDue, fanOut } from "./fan-out";
import type { NotifyEnv } from "./notify-env";

export interface NotifyWorker {
  /** One pass: fan out new events, then start every due delivery (not awaited). */
  tick(): Promise<void>;
  /** Resolves when the attempts started so far have finished. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The delivery loop: woken by the card bus at once and by a timer every `pollMs`. Each delivery runs
 * on its own, so a slow or dead endpoint holds only its own request (10 s timeout) and never the others.
 */
export function startNotifyWorker({
  db,
  env = {},
  pollMs = 500,
  onError = (e) => console.error("notify worker:", e),
}: {
  db: Db;
  env?: NotifyEnv;
  pollMs?: number;
  onError?: (error: unknown) => void;
}): NotifyWorker {
  const inflight = new Set<Promise<void>>();
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  const pass = async () => {
    await fanOut(db, env);
    for (const delivery of await claimDue(db, env)) {
      const p = attemptDelivery(db, delivery, env)
        .catch(onError)
        .finally(() => inflight.delete(p));
      inflight.add(p);
    }
  };
  const tick = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await pass().catch(onError);
      } while (again && !stopped);
    })().finally(() => {
      running = null;
    });
    return running;
  };
  const timer = pollMs > 0 ? setInterval(() => void tick(), pollMs) : null;
  timer?.unref();
  const unsubscribe = subscribeCardChanges(() => void tick());
  return {
    tick,
    async idle() {
      while (inflight.size > 0 || running) await Promise.allSettled([...inflight, running]);
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      unsubscribe();
      await this.idle();
    },
  };
}
