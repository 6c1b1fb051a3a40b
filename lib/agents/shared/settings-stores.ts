/**
 * Stores of agents whose permissions live in settings files lib/stores reads and edits in place (JSON settings, the
 * mevedel plist): listing, revoke, narrow and add for one agent. Nothing here knows which agent it serves.
 */
import { addEntry } from "@/lib/stores/add-entry";
import { discoverStores } from "@/lib/stores/discover";
import { listEntries } from "@/lib/stores/list-entries";
import { narrowEntry } from "@/lib/stores/narrow-entry";
import { revokeEntryDetailed } from "@/lib/stores/revoke-entry";
import type { Agent } from "@/lib/stores/types";
import type { AgentStores } from "../types";

export function settingsStores(agent: Agent): AgentStores {
  return {
    async list({ workspace, home, managedSettingsPath }) {
      return listEntries({ workspace, home, managedSettingsPath, agent });
    },
    async revoke(target) {
      const { result, entry } = await revokeEntryDetailed({ ...target, agent });
      return { ...result, ...(entry ? { entry } : {}) };
    },
    narrow: (target) => narrowEntry({ ...target, agent }),
    add: (input) => addEntry({ ...input, agent }),
    workspaceFiles(scope) {
      return discoverStores({ ...scope, managedSettingsPath: null }, agent)
        .filter((s) => s.scope === "workspace")
        .map((s) => s.path);
    },
  };
}
