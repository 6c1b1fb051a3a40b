import { promises as fs } from "node:fs";
import type { StoreLocation } from "./discover";
import { loadStore, type LoadedStore } from "./load-store";
import { processDeadline, storeReadLimits } from "./read-store";
import { overlaidText } from "./overlay";

/**
 * Parsed stores cached by file version, for policy decisions. A store's version key is what a stat
 * says about the file its path resolves to: device, inode, size, mtime and ctime (plus the resolved
 * path). A stat that shows no change reuses the parse: no open, no read, no parse. Anything else
 * (missing → present, an atomic rename, an in-place edit) reads the file again through the safe
 * reader (lstat, size cap, non-blocking open, timeout). Unreadable stores (not a regular file, too
 * large, too slow) are never cached, so the reader judges them afresh each time.
 *
 * Writers (add, revoke, narrow) and the Rules page do not use this cache: they read the bytes they
 * compare versions against.
 */

/** Paths kept at most; least recently used first out. */
export const STORE_CACHE_SIZE = 256;

interface Cached {
  key: string;
  store: LoadedStore;
}

// On globalThis: Next.js may load this module once per bundle; one cache per process.
const cacheKey = Symbol.for("permissions-cockpit.store-cache");
type WithCache = typeof globalThis & { [cacheKey]?: Map<string, Cached> };
function cache(): Map<string, Cached> {
  const g = globalThis as WithCache;
  return (g[cacheKey] ??= new Map());
}

/** Forget every cached parse (tests). */
export function clearStoreCache(): void {
  cache().clear();
}

/** The version key of the file at `file` now, or null when a stat cannot tell (then the file is read). */
async function versionKey(file: string): Promise<string | null> {
  const deadline = processDeadline(storeReadLimits().timeoutMs, () => null);
  const stat = (async () => {
    try {
      const real = await fs.realpath(file);
      const st = await fs.stat(real);
      if (!st.isFile()) return null;
      return `${real}\0${st.dev}\0${st.ino}\0${st.size}\0${st.mtimeMs}\0${st.ctimeMs}`;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return code === "ENOENT" || code === "ENOTDIR" ? "missing" : null;
    }
  })();
  try {
    return await Promise.race([stat, deadline.promise]);
  } finally {
    deadline.cancel();
  }
}

/** `loadStore`, reusing the last parse of this location while the file's version key is unchanged. */
export async function loadStoreCached(location: StoreLocation, home: string): Promise<LoadedStore> {
  // Inside an impact preview, a file the preview "wrote" is read from memory, never cached (lib/stores/overlay.ts).
  if (overlaidText(location.path) !== undefined) return loadStore(location, home);
  const id = `${location.agent}\0${location.scope}\0${location.format}\0${location.base}\0${location.root}\0${location.readOnly}\0${home}\0${location.path}`;
  const map = cache();
  const key = await versionKey(location.path);
  const hit = map.get(id);
  if (key !== null && hit && hit.key === key) {
    map.delete(id); // refresh its place in the LRU order
    map.set(id, hit);
    return hit.store;
  }
  const store = await loadStore(location, home);
  // Cache only what a stat can vouch for: a file read whole, or a missing one.
  const cacheable = key !== null && store.bytes.version !== "unreadable" && (key === "missing") === !store.bytes.exists;
  if (cacheable) {
    map.delete(id);
    map.set(id, { key, store });
    while (map.size > STORE_CACHE_SIZE) map.delete(map.keys().next().value!);
  } else map.delete(id);
  return store;
}
