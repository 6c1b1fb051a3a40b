import fs from "node:fs";
import path from "node:path";

export type AgentName = "claude-code" | "commandcode" | "mevedel";

/** The settings files each agent keeps inside a workspace (DESIGN.md "Backing stores"). */
export const WORKSPACE_STORE_FILES: Record<AgentName, string[]> = {
  "claude-code": [".claude/settings.json", ".claude/settings.local.json"],
  commandcode: [".commandcode/settings.json", ".commandcode/settings.local.json"],
  mevedel: [".mevedel/permissions.el"],
};

export interface StorePresence {
  agent: AgentName;
  file: string;
  path: string;
  exists: boolean;
}

/** Which agent settings files exist in a folder; reads nothing but the directory entries. */
export function detectAgentStores(folder: string): StorePresence[] {
  return (Object.entries(WORKSPACE_STORE_FILES) as [AgentName, string[]][]).flatMap(([agent, files]) =>
    files.map((file) => {
      const full = path.join(folder, file);
      let exists = false;
      try {
        exists = fs.lstatSync(full).isFile() || fs.lstatSync(full).isSymbolicLink();
      } catch {
        exists = false;
      }
      return { agent, file, path: full, exists };
    }),
  );
}
