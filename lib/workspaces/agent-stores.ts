import fs from "node:fs";
import path from "node:path";
import { AGENT_LIST } from "@/lib/agents";

export interface StorePresence {
  agent: string;
  file: string;
  path: string;
  exists: boolean;
}

/** Which of the agents' workspace files (their catalogue's `workspaceFiles`) exist in a folder; reads only directory entries. */
export function detectAgentStores(folder: string): StorePresence[] {
  return AGENT_LIST.flatMap((a) =>
    ("workspaceFiles" in a ? a.workspaceFiles : []).map((file) => {
      const full = path.resolve(folder, file);
      let exists = false;
      try {
        const stat = fs.lstatSync(full);
        exists = stat.isFile() || stat.isSymbolicLink() || stat.isDirectory();
      } catch {
        exists = false;
      }
      return { agent: a.id, file, path: full, exists };
    }),
  );
}
