import type { AgentInfo } from "../info";

export const info = {
  id: "gemini",
  label: "Gemini CLI",
  hasStores: true,
  workspaceFiles: [".gemini/settings.json", ".gemini/policies"],
  hasConnector: true,
  modeLabel: "approval mode (default, auto_edit, yolo, plan)",
  addFiles: [
    {
      file: "auto-saved.toml",
      note: "~/.gemini/policies: where Gemini's own “allow for all future sessions” writes",
      scopes: ["global", "workspace"],
    },
    { file: "cockpit.toml", note: "~/.gemini/policies: a file of your own", scopes: ["global", "workspace"] },
  ],
  ruleExample: 'toolName = "run_shell_command", commandPrefix = "git status", decision = "allow", priority = 100',
} as const satisfies AgentInfo;
