import type { AgentInfo } from "../info";

export const info = {
  id: "mevedel",
  label: "mevedel",
  hasStores: true,
  hasConnector: false,
  modeLabel: "mode (ask, edits, full-auto)",
  ruleExample: '("Bash" :pattern "git log *") or (:path "~/notes" :access read)',
} as const satisfies AgentInfo;
