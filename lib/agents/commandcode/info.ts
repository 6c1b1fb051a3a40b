import type { AgentInfo } from "../info";

export const info = {
  id: "commandcode",
  label: "Command Code",
  hasStores: true,
  hasConnector: true,
  // Its hook docs never say a hook's allow skips Command Code's own prompt (docs/agents.md).
  cardWarnings: ["agent may still ask"],
  modeLabel: "mode (default, accept-edits, plan, yolo, dont-ask)",
  addFiles: [
    { file: "settings.local.json", note: "personal, not committed" },
    { file: "settings.json", note: "shared with the project" },
  ],
  ruleExample: "Shell(git status:*)",
} as const satisfies AgentInfo;
