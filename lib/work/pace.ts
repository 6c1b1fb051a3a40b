/**
 * Long CPU work on the server's one thread (impact previews, audit verification): hand the event loop a turn
 * between batches so `/api/health`, answers and streams keep flowing, stop at a work budget, and stop when the
 * caller has gone away.
 */

export interface WorkBudget {
  /** Most units of work (replayed calls, checked rows). */
  units: number;
  /** Most milliseconds of wall time; checked between batches. */
  ms: number;
}

/** Why a paced run stopped early: the unit budget, the time budget, or the caller hung up. */
export type Stop = "units" | "time" | "aborted";

export interface Pacer {
  /** Units counted so far. */
  readonly done: number;
  /** Why the run stopped, once it has. */
  readonly stopped: Stop | null;
  /**
   * Call before each unit of work: resolves `true` to go on, `false` to stop (budget spent or aborted).
   * Every `batch` units (or `sliceMs` of work, whichever comes first) it yields to the event loop first.
   */
  next(): Promise<boolean>;
}

export const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export function pacer({
  budget,
  batch = 25,
  sliceMs = 10,
  signal,
  clock = Date.now,
  onYield,
}: {
  budget: WorkBudget;
  batch?: number;
  sliceMs?: number;
  signal?: AbortSignal;
  clock?: () => number;
  /** Called at each yield (tests count them). */
  onYield?: () => void;
}): Pacer {
  const deadline = clock() + budget.ms;
  let done = 0;
  let sinceYield = 0;
  let sliceStart = clock();
  let stopped: Stop | null = null;
  return {
    get done() {
      return done;
    },
    get stopped() {
      return stopped;
    },
    async next() {
      if (stopped) return false;
      if (sinceYield >= batch || clock() - sliceStart >= sliceMs) {
        sinceYield = 0;
        onYield?.();
        await yieldToLoop();
        sliceStart = clock();
      }
      if (signal?.aborted) stopped = "aborted";
      else if (done >= budget.units) stopped = "units";
      else if (clock() >= deadline) stopped = "time";
      if (stopped) return false;
      done++;
      sinceYield++;
      return true;
    },
  };
}

/** "truncated after 1000 calls (work budget: 1000 calls or 5 s)" — the sentence the API and the UI show. */
export function truncationNote(p: Pacer, budget: WorkBudget, unit: string): string | null {
  if (!p.stopped) return null;
  const why =
    p.stopped === "aborted"
      ? "the request was cancelled"
      : `work budget: ${budget.units} ${unit}s or ${Math.round(budget.ms / 1000)} s`;
  return `truncated after ${p.done} ${unit}${p.done === 1 ? "" : "s"} (${why})`;
}
