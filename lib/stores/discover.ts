import path from "node:path";
import { AGENT_LIST, type AgentInfo } from "@/lib/agents";
import type { Agent, Scope, StoreFormat } from "./types";

/** Agents whose permissions live in settings files read here (their catalogue entry's `settingsFiles`), in order. */
const SETTINGS_INFOS = (AGENT_LIST as readonly AgentInfo[]).filter((a) => a.settingsFiles?.length);

/** The agents whose settings files lib/stores reads, in the catalogue's order. */
export const SETTINGS_AGENTS = SETTINGS_INFOS.map((a) => a.id as Agent);

/** The managed settings file the catalogue names (read-only, for everyone on the machine); null when none does. */
export const DEFAULT_MANAGED_SETTINGS: string | null =
  SETTINGS_INFOS.flatMap((a) => a.settingsFiles!).find((f) => f.scope === "managed")?.path ?? null;

/** A store file the cockpit knows about, before it is read. */
export interface StoreLocation {
  path: string;
  agent: Agent;
  scope: Scope;
  format: StoreFormat;
  /** Folder a rule's `/x` is relative to (Claude Code's); the workspace for the others. */
  base: string;
  /** The folder symlink checks start from (workspace or home); null for managed. */
  root: string | null;
  readOnly: boolean;
}

export interface StorePaths {
  workspace: string;
  home: string;
  /** Override for tests; `null` disables the managed store. */
  managedSettingsPath?: string | null;
  /** The system configuration folder agents read their managed files from (default `/etc`); tests point it away. */
  etcDir?: string;
}

/**
 * Every settings file of one agent (or of all agents), as each agent's catalogue entry lists them: workspace files
 * first, then global, then managed.
 */
export function discoverStores({ workspace, home, managedSettingsPath }: StorePaths, agent?: Agent): StoreLocation[] {
  const ws = path.resolve(workspace);
  const hm = path.resolve(home);
  const out: StoreLocation[] = [];
  for (const info of SETTINGS_INFOS) {
    if (agent && agent !== info.id) continue;
    for (const file of info.settingsFiles!) {
      const { scope, format } = file;
      const id = info.id as Agent;
      if (scope === "managed") {
        const managed = managedSettingsPath === undefined ? file.path : managedSettingsPath;
        if (managed)
          out.push({
            path: managed,
            agent: id,
            scope,
            format,
            base: path.dirname(managed),
            root: null,
            readOnly: true,
          });
        continue;
      }
      const root = scope === "workspace" ? ws : hm;
      const full = path.join(root, file.path);
      const base = file.base === "folder" ? path.dirname(full) : ws;
      out.push({ path: full, agent: id, scope, format, base, root, readOnly: false });
    }
  }
  return out;
}

/** The writable store an `add` targets: `file` picks settings.json vs settings.local.json. */
export function targetStore(
  paths: StorePaths,
  agent: Agent,
  scope: "workspace" | "global",
  file?: string,
): StoreLocation {
  const candidates = discoverStores({ ...paths, managedSettingsPath: null }, agent).filter((s) => s.scope === scope);
  if (file) {
    const hit = candidates.find((s) => path.basename(s.path) === path.basename(file));
    if (!hit)
      throw new Error(
        `no ${scope} store named ${file} for ${agent} (choose ${candidates.map((s) => path.basename(s.path)).join(" or ")})`,
      );
    return hit;
  }
  // Personal, uncommitted file by default for workspace rules (what the agents' "always allow" writes).
  return candidates.find((s) => s.path.endsWith(".local.json")) ?? candidates[0];
}
