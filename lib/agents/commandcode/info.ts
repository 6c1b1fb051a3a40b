import type { AgentInfo } from "../info";

export const info = {
  id: "commandcode",
  label: "Command Code",
  hasStores: true,
  settingsFiles: [
    { path: ".commandcode/settings.json", scope: "workspace", format: "commandcode-json" },
    { path: ".commandcode/settings.local.json", scope: "workspace", format: "commandcode-json" },
    { path: ".commandcode/settings.json", scope: "global", format: "commandcode-json" },
  ],
  formatLabels: { "commandcode-json": "Command Code JSONC" },
  workspaceFiles: [".commandcode/settings.json", ".commandcode/settings.local.json"],
  hasConnector: true,
  // Its hook docs never say a hook's allow skips Command Code's own prompt (docs/agents.md).
  cardWarnings: ["agent may still ask"],
  modeLabel: "mode (default, accept-edits, plan, yolo, dont-ask)",
  addFiles: [
    { file: "settings.local.json", note: "personal, not committed", scopes: ["workspace"] },
    { file: "settings.json", note: "shared with the project", scopes: ["workspace", "global"] },
  ],
  ruleExample: "Shell(git status:*)",
  narrowHelp: "allow | ask | deny, or the new rule text, e.g. 'Shell(git status:*)'",
  ruleTraits: {
    precedence: "deny-first",
    alwaysAllowedTools: ["AskUserQuestion", "Agent", "RunCommand"],
    alwaysAllowedCited: true,
    colonStarSuffix: true,
  },
} as const satisfies AgentInfo;
