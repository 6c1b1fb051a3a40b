import path from "node:path";
import { claudeTrust } from "@/lib/stores/claude-trust";
import { ladderEngine } from "../shared/ladder-engine";
import type { LadderOptions } from "../shared/ladder-snapshot";
import { dialect } from "./dialect";

/**
 * Decided by lib/policy's documented ladder in Claude Code's dialect. Plans and skills live in `~/.claude/plans`,
 * `~/.claude/skills` and the workspace's `.claude/skills`; its settings files carry workspace trust,
 * `allowManagedPermissionRulesOnly`, and a `defaultMode` that `.claude/settings*.json` cannot set to auto or
 * bypassPermissions ("the value doesn't take effect", permission-modes).
 */
export const ladder: LadderOptions = {
  locations: (workspace, home) => ({
    planDir: path.join(home, ".claude/plans"),
    skillDirs: [path.join(home, ".claude/skills"), path.join(workspace, ".claude/skills")],
  }),
  semantics: { trust: claudeTrust, managedRulesOnly: true, workspaceModesIgnored: ["auto", "yolo"] },
};

export const engine = ladderEngine(dialect, ladder);
