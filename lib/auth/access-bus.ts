import { EventEmitter } from "node:events";

/** Someone's access changed (role lowered, removed, session ended): open streams re-check at once. */
export interface AccessChange {
  userId: string;
}

const globalForBus = globalThis as unknown as { __cockpitAccessBus?: EventEmitter };
const bus = (globalForBus.__cockpitAccessBus ??= new EventEmitter().setMaxListeners(0));

export function publishAccessChange(change: AccessChange): void {
  bus.emit("change", change);
}

export function subscribeAccessChanges(listener: (change: AccessChange) => void): () => void {
  bus.on("change", listener);
  return () => bus.off("change", listener);
}
