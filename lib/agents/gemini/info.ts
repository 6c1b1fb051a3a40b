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
  // Gemini's BeforeTool hook may deny, force its prompt or rewrite the call, but a hook's "allow" is read nowhere
  // (hooks.ts, agent-connector.ts): the hook waits for a remote deny, then Gemini's own policy check and prompt run.
  canAllowFromCockpit: false,
  approveNote:
    "Gemini CLI cannot be approved from here (its hooks can only deny): deny here, or approve in Gemini's terminal, where its prompt appears once this card closes (the hook waits 60 s by default).",
  narrowHelp: `a stricter decision (ask | deny), or the [[rule]] line with more conditions:
    'toolName = "run_shell_command", commandPrefix = "git status", decision = "allow", priority = 100'
    (a commandPrefix grows by whole words only: git → git status); a tools.allowed or tools.core
    shell entry of settings.json: the longer legacy form, 'run_shell_command(git status)'`,
  ruleExample: 'toolName = "run_shell_command", commandPrefix = "git status", decision = "allow", priority = 100',
} as const satisfies AgentInfo;
