import fs from "node:fs";
import path from "node:path";
import { storeEnv } from "@/lib/config/env";
import { discoverStores } from "@/lib/stores/discover";
import { storePaths } from "@/lib/stores/store-paths";
import type { Agent } from "@/lib/stores/types";

export type AgentName = Agent;

export interface StorePresence {
  agent: AgentName;
  file: string;
  path: string;
  exists: boolean;
}

/** Which of the agents' workspace settings files (DESIGN.md "Backing stores") exist in a folder; reads only directory entries. */
export function detectAgentStores(folder: string): StorePresence[] {
  return discoverStores(storePaths(storeEnv(), folder))
    .filter((s) => s.scope === "workspace")
    .map((s) => {
      let exists = false;
      try {
        const stat = fs.lstatSync(s.path);
        exists = stat.isFile() || stat.isSymbolicLink();
      } catch {
        exists = false;
      }
      return { agent: s.agent, file: path.relative(folder, s.path), path: s.path, exists };
    });
}
