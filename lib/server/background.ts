/**
 * Long-running work of the server process (delivery workers, expiry timers): a static list of plain
 * start functions, one per concern; `instrumentation.ts` runs them once when the server starts.
 * Start functions open the database lazily (dynamic imports inside) and must not throw (log and retry instead);
 * a start function that throws anyway is logged and the others still start.
 */
import { startAuditWork } from "@/lib/audit/background";
import { startCardsWork } from "@/lib/cards/background";
import { startNotifyWork } from "@/lib/notify/background";
import { startStoreSweep } from "@/lib/workspaces/background";

export interface BackgroundWork {
  name: string;
  start: () => Promise<void> | void;
}

export const BACKGROUND_WORK: readonly BackgroundWork[] = [
  { name: "audit", start: startAuditWork },
  { name: "cards", start: startCardsWork },
  { name: "notify", start: startNotifyWork },
  { name: "store-sweep", start: startStoreSweep },
];

const startedKey = Symbol.for("permissions-cockpit.background-started");

export async function startBackgroundWork(work: readonly BackgroundWork[] = BACKGROUND_WORK): Promise<void> {
  const g = globalThis as typeof globalThis & { [startedKey]?: boolean };
  if (g[startedKey]) return;
  g[startedKey] = true;
  for (const w of work) {
    try {
      await w.start();
    } catch (error) {
      console.error(`background work "${w.name}" failed to start:`, error);
    }
  }
}
