import path from "node:path";

export const DEFAULT_DATA_DIR = ".cockpit";

/**
 * The data folder (COCKPIT_DATA, default ./.cockpit) as an absolute path. Apart from the env schema so the
 * hook bridge can find the running cockpit's credential without loading it.
 */
export function dataDirOf(source: Record<string, string | undefined> = process.env): string {
  return path.resolve(source.COCKPIT_DATA || DEFAULT_DATA_DIR);
}
