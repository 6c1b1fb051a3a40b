import { createHash } from "node:crypto";
import { constants, promises as fs, type Stats } from "node:fs";
import { SymlinkRefusedError } from "@/lib/errors";
import { overlaidText } from "./overlay";

export interface StoreBytes {
  exists: boolean;
  bytes: Buffer;
  /** Decoded text; only meaningful when `decodeError` is unset. */
  text: string;
  version: string;
  /** Why the store cannot be used (bad UTF-8, not a regular file, too large, too slow); it is then invalid. */
  decodeError?: string;
}

export function sha256(data: Buffer | string): string {
  return createHash("sha256").update(data).digest("hex");
}

export function decodeStore(bytes: Buffer): StoreBytes {
  const text = bytes.toString("utf8");
  const roundTrips = Buffer.from(text, "utf8").equals(bytes);
  return {
    exists: true,
    bytes,
    text,
    version: sha256(bytes),
    decodeError: roundTrips ? undefined : "file is not valid UTF-8",
  };
}

export const MISSING: StoreBytes = { exists: false, bytes: Buffer.alloc(0), text: "", version: "missing" };

const unreadable = (reason: string): StoreBytes => ({
  ...MISSING,
  exists: true,
  version: "unreadable",
  decodeError: reason,
});

export interface StoreReadLimits {
  /** Largest store accepted, in bytes (COCKPIT_MAX_STORE_BYTES; default 1 MiB). */
  maxBytes: number;
  /** How long one read may take before the store is reported unreadable. */
  timeoutMs: number;
}

export const DEFAULT_STORE_READ_LIMITS: StoreReadLimits = { maxBytes: 1024 * 1024, timeoutMs: 5_000 };

const TICK_MS = 250;

/**
 * A deadline that resolves with `value` once `ms` of the process's own time have passed: it advances in ticks of
 * 250 ms and a tick that fires late (the event loop was busy: the server under load, a large parse) counts as one
 * tick, not as the whole delay. A stalled read (a hung network mount) still ends in about `ms`; a busy server no
 * longer reports a healthy store unreadable because its own callbacks ran late.
 */
export function processDeadline<T>(ms: number, value: () => T): { promise: Promise<T>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  let left = ms;
  let last = performance.now();
  const promise = new Promise<T>((resolve) => {
    const tick = () => {
      const now = performance.now();
      left -= Math.min(now - last, TICK_MS);
      last = now;
      if (left <= 0) resolve(value());
      else timer = setTimeout(tick, Math.min(TICK_MS, left));
    };
    timer = setTimeout(tick, Math.min(TICK_MS, left));
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

// On globalThis: Next.js may load this module once per bundle, but the limits are per process.
const limitsKey = Symbol.for("permissions-cockpit.store-read-limits");
type WithLimits = typeof globalThis & { [limitsKey]?: StoreReadLimits };

/** Set the process-wide store read limits (the server and the CLI do this once from the environment). */
export function configureStoreReads(limits: Partial<StoreReadLimits>): void {
  const g = globalThis as WithLimits;
  g[limitsKey] = { ...storeReadLimits(), ...limits };
}

export function storeReadLimits(): StoreReadLimits {
  return (globalThis as WithLimits)[limitsKey] ?? DEFAULT_STORE_READ_LIMITS;
}

function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return "a directory";
  if (stat.isFIFO()) return "a named pipe (FIFO)";
  if (stat.isCharacterDevice()) return "a character device";
  if (stat.isBlockDevice()) return "a block device";
  if (stat.isSocket()) return "a socket";
  if (stat.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}

const CHUNK = 64 * 1024;

/**
 * Read a store's current bytes; a missing file is an empty store with version "missing". Only regular
 * files (after resolving symlinks, unless `noFollow`) up to `maxBytes` are read, opened non-blocking
 * and under a timeout; anything else comes back with `decodeError` set, so the store is listed invalid
 * and never written. With `noFollow`, a symlink at the last component throws SymlinkRefusedError.
 */
export async function readStoreBytes(file: string, options: { noFollow?: boolean } = {}): Promise<StoreBytes> {
  // Inside an impact preview, a file the preview "wrote" reads as that content (lib/stores/overlay.ts).
  const overlaid = overlaidText(file);
  if (overlaid !== undefined) return decodeStore(Buffer.from(overlaid, "utf8"));
  const limits = storeReadLimits();
  const deadline = processDeadline(limits.timeoutMs, () =>
    unreadable(`reading took longer than ${limits.timeoutMs} ms`),
  );
  try {
    return await Promise.race([readBounded(file, options.noFollow === true, limits.maxBytes), deadline.promise]);
  } finally {
    deadline.cancel();
  }
}

function tooLarge(size: number, maxBytes: number): string {
  return `file is larger than the store limit (${size} bytes > ${maxBytes}; COCKPIT_MAX_STORE_BYTES)`;
}

async function readBounded(file: string, noFollow: boolean, maxBytes: number): Promise<StoreBytes> {
  let target = file;
  let stat: Stats;
  try {
    if (!noFollow) target = await fs.realpath(file);
    stat = await fs.lstat(target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return MISSING;
    if (code === "ELOOP") return unreadable("symbolic link loop");
    return unreadable(`cannot read: ${code ?? String(error)}`);
  }
  if (stat.isSymbolicLink()) throw new SymlinkRefusedError(`refusing to write through a symlink: ${file}`);
  if (stat.isDirectory()) return unreadable("path is a directory");
  if (!stat.isFile()) return unreadable(`not a regular file: ${kindOf(stat)}`);
  if (stat.size > maxBytes) return unreadable(tooLarge(stat.size, maxBytes));

  let handle;
  try {
    // O_NONBLOCK: a file swapped for a FIFO after the lstat cannot block the thread pool.
    handle = await fs.open(target, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return MISSING;
    if (code === "ELOOP" && noFollow) throw new SymlinkRefusedError(`refusing to write through a symlink: ${file}`);
    return unreadable(`cannot read: ${code ?? String(error)}`);
  }
  try {
    const opened = await handle.stat();
    if (!opened.isFile() || opened.ino !== stat.ino || opened.dev !== stat.dev)
      return unreadable("the file was replaced while reading — refresh");
    if (opened.size > maxBytes) return unreadable(tooLarge(opened.size, maxBytes));
    // Read at most maxBytes + 1: a file that grows while being read is caught, not followed.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(Math.min(CHUNK, maxBytes + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, total);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) return unreadable(`${tooLarge(total, maxBytes)}; it grew while being read`);
    }
    return decodeStore(Buffer.concat(chunks, total));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return unreadable(`cannot read: ${code ?? String(error)}`);
  } finally {
    await handle.close();
  }
}

/** Line numbers for many offsets in one pass (listing 5,000 entries must not be quadratic). */
export function lineIndex(text: string): (offset: number) => number {
  const starts: number[] = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}
