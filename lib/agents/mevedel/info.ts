import type { AgentInfo } from "../info";

export const info = {
  id: "mevedel",
  label: "mevedel",
  hasStores: true,
  settingsFiles: [
    { path: ".mevedel/permissions.el", scope: "workspace", format: "mevedel-plist" },
    { path: ".mevedel/permissions.el", scope: "global", format: "mevedel-plist" },
  ],
  formatLabels: { "mevedel-plist": "mevedel plist" },
  workspaceFiles: [".mevedel/permissions.el"],
  hasConnector: false,
  modeLabel: "mode (ask, edits, full-auto)",
  ruleExample: '("Bash" :pattern "git log *") or (:path "~/notes" :access read)',
  narrowHelp: `a full form '("Bash" :pattern "git log*" :action allow)', or modifiers:
    allow|ask|deny  pattern:"V"  path:P  domain:D  name:N       (rules)
    exact  read  path:P                                         (resource grants)
    network:off  drop-fs:P  fs-exact:P  fs-read:P               (profiles)`,
  auditLog: { file: "permission-log.el", toolFields: ["tool", "tool-name"] },
  ruleTraits: {
    precedence: "buckets",
    shellFamilyAllow: '("Bash" :pattern "{} *" :action allow)',
  },
} as const satisfies AgentInfo;
