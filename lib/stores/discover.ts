import path from "node:path";
import type { Agent, Scope, StoreFormat } from "./types";

export const DEFAULT_MANAGED_SETTINGS = "/etc/claude-code/managed-settings.json";

/** A store file the cockpit knows about, before it is read. */
export interface StoreLocation {
  path: string;
  agent: Agent;
  scope: Scope;
  format: StoreFormat;
  /** Folder `/x` Claude Code rules are relative to. */
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

/** Every store of one agent (or all agents), workspace files first, then global, then managed. */
export function discoverStores({ workspace, home, managedSettingsPath }: StorePaths, agent?: Agent): StoreLocation[] {
  const ws = path.resolve(workspace);
  const hm = path.resolve(home);
  const out: StoreLocation[] = [];
  const want = (a: Agent) => !agent || agent === a;
  if (want("claude-code")) {
    out.push(
      loc(ws, ".claude/settings.json", "claude-code", "workspace", "claude-json", ws),
      loc(ws, ".claude/settings.local.json", "claude-code", "workspace", "claude-json", ws),
      loc(hm, ".claude/settings.json", "claude-code", "global", "claude-json", path.join(hm, ".claude")),
    );
    const managed = managedSettingsPath === undefined ? DEFAULT_MANAGED_SETTINGS : managedSettingsPath;
    if (managed) {
      out.push({
        path: managed,
        agent: "claude-code",
        scope: "managed",
        format: "claude-json",
        base: path.dirname(managed),
        root: null,
        readOnly: true,
      });
    }
  }
  if (want("commandcode")) {
    out.push(
      loc(ws, ".commandcode/settings.json", "commandcode", "workspace", "commandcode-json", ws),
      loc(ws, ".commandcode/settings.local.json", "commandcode", "workspace", "commandcode-json", ws),
      loc(hm, ".commandcode/settings.json", "commandcode", "global", "commandcode-json", ws),
    );
  }
  if (want("mevedel")) {
    out.push(
      loc(ws, ".mevedel/permissions.el", "mevedel", "workspace", "mevedel-plist", ws),
      loc(hm, ".mevedel/permissions.el", "mevedel", "global", "mevedel-plist", ws),
    );
  }
  return out;
}

function loc(root: string, rel: string, agent: Agent, scope: Scope, format: StoreFormat, base: string): StoreLocation {
  return { path: path.join(root, rel), agent, scope, format, base, root, readOnly: false };
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
