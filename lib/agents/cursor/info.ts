import type { AgentInfo } from "../info";

export const info = {
  id: "cursor",
  label: "Cursor CLI",
  hasStores: true,
  workspaceFiles: [".cursor/cli.json", ".cursor/hooks.json"],
  hasConnector: true,
  modeLabel: "mode (default = allowlist, auto-review, force, unrestricted)",
  addFiles: [
    { file: "cli.json", note: "the project's .cursor/cli.json", scopes: ["workspace"] },
    { file: "cli-config.json", note: "~/.cursor/cli-config.json", scopes: ["global"] },
  ],
  ruleExample: "Shell(git) or Shell(npm:test) or Read(src/**) or WebFetch(docs.github.com)",
} as const satisfies AgentInfo;
