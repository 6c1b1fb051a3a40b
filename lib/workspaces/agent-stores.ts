import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { discoverStores } from "@/lib/stores/discover";
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
  return discoverStores({ workspace: folder, home: os.homedir(), managedSettingsPath: null })
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
