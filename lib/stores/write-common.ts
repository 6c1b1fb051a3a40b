import path from "node:path";
import { assertNoEmacsLock, assertNoSymlinks, writeAtomically } from "./atomic-write";
import { sha256 } from "./read-store";
import type { StorePaths } from "./discover";
import {
  StoreChangedError,
  InvalidStoreError,
  EntryNotFoundError,
  ReadOnlyStoreError,
  SymlinkRefusedError,
} from "@/lib/errors";
import { loadAllStores } from "./list-entries";
import type { LoadedStore } from "./load-store";
import type { Agent, LocatedEntry, Scope } from "./types";

export const GLOBAL_WARNING = "global entry: this file affects every project";

export interface EntryRef extends StorePaths {
  id: string;
  /** Only this agent's stores hold it (unset: any agent's). */
  agent?: Agent;
  /** The store version the entry was listed from; writes refuse when the file has moved on. */
  expectedVersion?: string;
  /** Compute and check everything, report the change, write nothing (for confirmations). */
  dryRun?: boolean;
}

export interface WriteResult {
  store: string;
  scope: Scope;
  before: { version: string; line: number; text: string };
  after: { version: string; line: number; text: string };
  /** Set for global stores: the change affects every project. */
  scopeWarning?: string;
  /** True when nothing was written (dryRun). */
  dryRun?: boolean;
}

/** Find an entry by id in the stores as they are on disk now. */
export async function findEntry(ref: EntryRef): Promise<{ store: LoadedStore; located: LocatedEntry }> {
  for (const store of await loadAllStores(ref)) {
    const located = store.located.find((l) => l.entry.id === ref.id);
    if (located) return { store, located };
  }
  throw new EntryNotFoundError(`no entry ${ref.id} — refresh`);
}

/** Refusals shared by every write, in the order the user can act on them. */
export function assertWritable(store: LoadedStore, expectedVersion?: string): void {
  if (store.location.readOnly || !store.location.root)
    throw new ReadOnlyStoreError(`${store.info.path} is managed settings and read-only`);
  if (!store.info.valid)
    throw new InvalidStoreError(
      `${store.info.path} is invalid (${store.info.error}) — fix it first; it is never overwritten`,
    );
  if (expectedVersion !== undefined && expectedVersion !== store.info.version) throw new StoreChangedError();
  if (!store.info.writable && store.info.readOnlyReason) throw new SymlinkRefusedError(store.info.readOnlyReason);
}

/** Atomically replace the store's text, provided it still has the version it was loaded with. */
export async function commitStore(store: LoadedStore, content: string, dryRun = false): Promise<{ version: string }> {
  if (dryRun) {
    await assertNoSymlinks(store.location.root!, store.info.path);
    if (store.location.format === "mevedel-plist") await assertNoEmacsLock(store.info.path);
    return { version: sha256(Buffer.from(content, "utf8")) };
  }
  return writeAtomically({
    file: store.info.path,
    root: store.location.root!,
    expectedVersion: store.bytes.version,
    content,
    emacsLockCheck: store.location.format === "mevedel-plist",
  });
}

/** The full lines covering [start, end) of `text`, without the line ending. */
export function linesAround(text: string, start: number, end: number): { line: number; text: string } {
  const from = text.lastIndexOf("\n", start - 1) + 1;
  let to = text.indexOf("\n", Math.max(end - 1, start));
  if (to < 0) to = text.length;
  const slice = text.slice(from, to).replace(/\r$/, "");
  const line = text.slice(0, from).split("\n").length;
  return { line, text: slice };
}

export function scopeWarning(scope: Scope): string | undefined {
  return scope === "global" ? GLOBAL_WARNING : undefined;
}
