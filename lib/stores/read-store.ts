import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";

export interface StoreBytes {
  exists: boolean;
  bytes: Buffer;
  /** Decoded text; only meaningful when `decodeError` is unset. */
  text: string;
  version: string;
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

/** Read a store's current bytes; a missing file is an empty store with version "missing". */
export async function readStoreBytes(file: string): Promise<StoreBytes> {
  try {
    return decodeStore(await fs.readFile(file));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return MISSING;
    if (code === "EISDIR")
      return { ...MISSING, exists: true, version: "unreadable", decodeError: "path is a directory" };
    return { ...MISSING, exists: true, version: "unreadable", decodeError: `cannot read: ${code ?? String(error)}` };
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
