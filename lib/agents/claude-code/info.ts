import type { AgentInfo } from "../info";

export const info = {
  id: "claude-code",
  label: "Claude Code",
  hasStores: true,
  hasConnector: true,
  modeLabel: "permission mode (default, acceptEdits, plan, bypassPermissions, dontAsk)",
  addFiles: [
    { file: "settings.local.json", note: "personal, not committed" },
    { file: "settings.json", note: "shared with the project" },
  ],
  ruleExample: "Shell(git status:*)",
} as const satisfies AgentInfo;
