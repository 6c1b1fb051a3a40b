/**
 * Long-running work of the server process (delivery workers, expiry timers). Each concern
 * registers one starter here; `instrumentation.ts` runs them once when the server starts.
 * Starters must open the database lazily and never throw (log and retry instead).
 */
type Starter = { name: string; start: () => Promise<void> | void };

const starters: Starter[] = [];

export function registerBackgroundWork(name: string, start: Starter["start"]): void {
  if (!starters.some((s) => s.name === name)) starters.push({ name, start });
}

const startedKey = Symbol.for("permissions-cockpit.background-started");

export async function startBackgroundWork(): Promise<void> {
  const g = globalThis as typeof globalThis & { [startedKey]?: boolean };
  if (g[startedKey]) return;
  g[startedKey] = true;
  // Concerns add their starter modules to this list (one import each).
  await Promise.all(BACKGROUND_MODULES.map((load) => load()));
  for (const s of starters) {
    try {
      await s.start();
    } catch (error) {
      console.error(`background work "${s.name}" failed to start:`, error);
    }
  }
}

const BACKGROUND_MODULES: Array<() => Promise<unknown>> = [
  () => import("@/lib/audit/background"),
  () => import("@/lib/cards/background"),
  () => import("@/lib/notify/background"),
  () => import("@/lib/workspaces/background"),
];
