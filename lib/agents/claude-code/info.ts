import type { AgentInfo } from "../info";

export const info = {
  id: "claude-code",
  label: "Claude Code",
  hasStores: true,
  settingsFiles: [
    { path: ".claude/settings.json", scope: "workspace", format: "claude-json" },
    { path: ".claude/settings.local.json", scope: "workspace", format: "claude-json" },
    { path: ".claude/settings.json", scope: "global", format: "claude-json", base: "folder" },
    { path: "/etc/claude-code/managed-settings.json", scope: "managed", format: "claude-json", base: "folder" },
  ],
  formatLabels: { "claude-json": "Claude Code JSON" },
  workspaceFiles: [".claude/settings.json", ".claude/settings.local.json"],
  hasConnector: true,
  modeLabel: "permission mode (default, acceptEdits, plan, bypassPermissions, dontAsk)",
  addFiles: [
    { file: "settings.local.json", note: "personal, not committed", scopes: ["workspace"] },
    { file: "settings.json", note: "shared with the project", scopes: ["workspace", "global"] },
  ],
  ruleExample: "Shell(git status:*)",
  narrowHelp: "allow | ask | deny, or the new rule text, e.g. 'Shell(git status:*)'",
  ruleTraits: {
    precedence: "deny-first",
    slashFromStoreFolder: true,
    alwaysAllowedTools: ["AskUserQuestion", "Agent", "RunCommand"],
    // It documents deny and ask rules on subagents (`Agent(Explore)`).
    denyAskConsulted: ["Agent"],
    colonStarSuffix: true,
  },
} as const satisfies AgentInfo;
