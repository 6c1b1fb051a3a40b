import type { AgentInfo } from "../info";

export const info = {
  id: "codex",
  label: "Codex CLI",
  hasStores: true,
  hasConnector: true,
  modeLabel: "approval policy (untrusted, on-failure, on-request, never)",
  addFiles: [
    { file: "default.rules", note: "where Codex's own “don't ask again” writes" },
    { file: "config.toml", note: "approval_policy, sandbox_mode, trust_level" },
  ],
  ruleExample: 'prefix_rule(pattern=["git", ["status", "log"]], decision="allow") or ["git", "status"]',
} as const satisfies AgentInfo;
