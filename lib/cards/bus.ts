import { EventEmitter } from "node:events";
import type { CardStatus } from "@/db/schema/cards";

/** One change to a card, as live views and long-polls see it. */
export interface CardChange {
  type: "enqueued" | "displayed" | "resolved" | "coalesced" | "swept" | "expired" | "aborted";
  cardId: string;
  workspaceId: string;
  status: CardStatus;
}

export const PG_CHANNEL = "cockpit_cards";
const key = Symbol.for("permissions-cockpit.card-bus");
type Bus = { emitter: EventEmitter; origin: string; notify?: (payload: string) => Promise<void> };

function bus(): Bus {
  const g = globalThis as typeof globalThis & { [key]?: Bus };
  if (!g[key]) {
    const emitter = new EventEmitter();
    // Every SSE client and long-poll subscribes; the default limit of 10 is a false alarm here.
    emitter.setMaxListeners(0);
    g[key] = { emitter, origin: crypto.randomUUID() };
  }
  return g[key]!;
}

/** Tells this process's subscribers and, with Postgres, every other server process. Call after the commit. */
export function publishCardChange(change: CardChange): void {
  const b = bus();
  b.emitter.emit("change", change);
  if (b.notify)
    b.notify(JSON.stringify({ ...change, origin: b.origin })).catch((error) =>
      console.error("card bus NOTIFY failed:", error),
    );
}

export function subscribeCardChanges(listener: (change: CardChange) => void): () => void {
  const b = bus();
  b.emitter.on("change", listener);
  return () => b.emitter.off("change", listener);
}

/**
 * Bridges the bus over Postgres LISTEN/NOTIFY so several server processes see each other's changes.
 * Returns a stop function. Own notifications are skipped (they were already emitted locally).
 */
export async function connectPgBus(pool: import("pg").Pool): Promise<() => Promise<void>> {
  const b = bus();
  const client = await pool.connect();
  const onNotification = (msg: { channel: string; payload?: string }) => {
    if (msg.channel !== PG_CHANNEL || !msg.payload) return;
    try {
      const { origin, ...change } = JSON.parse(msg.payload) as CardChange & { origin: string };
      if (origin !== b.origin) b.emitter.emit("change", change);
    } catch {
      // A malformed payload from another tool on the channel is ignored.
    }
  };
  client.on("notification", onNotification);
  await client.query(`listen ${PG_CHANNEL}`);
  b.notify = async (payload) => {
    await pool.query("select pg_notify($1, $2)", [PG_CHANNEL, payload]);
  };
  return async () => {
    b.notify = undefined;
    client.off("notification", onNotification);
    await client.query(`unlisten ${PG_CHANNEL}`).catch(() => undefined);
    client.release();
  };
}

/**
 * Server shutdown: long-polls and event streams end at once so the old process can exit and
 * clients reconnect to the new one (cards persist; nothing is lost).
 */
export function announceShutdown(): void {
  const b = bus() as Bus & { down?: boolean };
  if (b.down) return;
  b.down = true;
  b.emitter.emit("shutdown");
}

export function onShutdown(listener: () => void): () => void {
  const b = bus() as Bus & { down?: boolean };
  if (b.down) {
    queueMicrotask(listener);
    return () => undefined;
  }
  b.emitter.once("shutdown", listener);
  return () => b.emitter.off("shutdown", listener);
}
