import path from "node:path";
import { sweepStaleTemps } from "./atomic-write";
import { discoverStores, type StorePaths } from "./discover";

/** Startup sweep over every writable store folder of a workspace (and of $HOME). */
export async function sweepStoreFolders(paths: StorePaths): Promise<string[]> {
  const dirs = new Set(discoverStores({ ...paths, managedSettingsPath: null }).map((s) => path.dirname(s.path)));
  return sweepStaleTemps([...dirs]);
}
