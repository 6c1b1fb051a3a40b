/** Rule hygiene: a pure lint over a workspace's entries (see docs/hygiene.md). */
export type { Finding, FindingKind, LintInput, LintItem, LintResult, Severity, Usage } from "./types";
export { FINDING_KINDS } from "./types";
export { bySeverity, lintWorkspace, reachesThreshold, removableIds, SEVERITY_RANK } from "./lint";
export { summarize, type HygieneSummary } from "./summary";
export { DEFAULT_DEAD_DAYS, NO_USAGE_NOTE } from "./dead";
export { coveringAllow, coveringRule, type CoveringAllow } from "./remembering";
