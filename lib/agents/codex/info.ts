import type { AgentInfo } from "../info";

export const info = {
  id: "codex",
  label: "Codex CLI",
  hasStores: true,
  workspaceFiles: [".codex/rules", ".codex/config.toml", ".codex/hooks.json"],
  hasConnector: true,
  modeLabel: "approval policy (untrusted, on-failure, on-request, never)",
  addFiles: [
    { file: "default.rules", note: "where Codex's own “don't ask again” writes", scopes: ["global", "workspace"] },
    { file: "config.toml", note: "approval_policy, sandbox_mode, trust_level", scopes: ["global", "workspace"] },
  ],
  ruleExample: 'prefix_rule(pattern=["git", ["status", "log"]], decision="allow") or ["git", "status"]',
} as const satisfies AgentInfo;
