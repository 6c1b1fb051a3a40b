/**
 * Store writes kept in memory for one computation (the impact preview: "what would change if this entry were revoked
 * or narrowed"). Inside `withStoreOverlay`, `writeAtomically` records the new content instead of touching the disk,
 * and every store read (`readStoreBytes`, and the agents' own readers) sees that content; nothing outside the callback
 * does. So an agent's own revoke/narrow, then its own engine load, give the policy after the edit, for any agent.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import path from "node:path";

// On globalThis: Next.js may load this module once per bundle, but an overlay must be seen by every reader.
const key = Symbol.for("permissions-cockpit.store-overlay");
type WithOverlay = typeof globalThis & { [key]?: AsyncLocalStorage<Map<string, string>> };

function storage(): AsyncLocalStorage<Map<string, string>> {
  const g = globalThis as WithOverlay;
  return (g[key] ??= new AsyncLocalStorage());
}

/** Run `fn` with writes captured in `files` (absolute path → content) and reads answered from them. */
export function withStoreOverlay<T>(files: Map<string, string>, fn: () => Promise<T>): Promise<T> {
  return storage().run(files, fn);
}

/** The content a captured write gave `file`, if a write inside the current overlay did. */
export function overlaidText(file: string): string | undefined {
  return storage().getStore()?.get(path.resolve(file));
}

/** Whether writes are being captured now (then nothing may reach the disk). */
export function capturingWrites(): boolean {
  return storage().getStore() !== undefined;
}

/** Record a write inside the current overlay. */
export function captureWrite(file: string, content: string): void {
  const files = storage().getStore();
  if (!files) throw new Error("captureWrite outside withStoreOverlay");
  files.set(path.resolve(file), content);
}
