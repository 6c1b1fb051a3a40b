/**
 * Public API of the Codex core. Pure modules decide from data handed to them; the `io/` modules read and write
 * files with paths passed in. The agent interface (agent.ts: engine, stores, connector) is built on them.
 * See docs/agents/codex.md.
 */
export {
  CodexCall,
  ApprovalPolicy,
  SandboxMode,
  SandboxPermissions,
  decideCodex,
  execApprovalRequirement,
  renderUnmatched,
  promptRejection,
} from "./decide";
export type { CodexDecideContext, CodexDecisionResult, CockpitDecision, ExecApprovalRequirement } from "./decide";
export { parseRulesFile } from "./rules-parse";
export type { RulesFile, RuleCall, FileStatus, ExampleCheck } from "./rules-parse";
export { loadPolicy, matchRules, matchPrefix, checkMultiple, emptyPolicy } from "./policy";
export type { CodexPolicy, LoadedPolicy, PolicyFailure, MatchOptions, Evaluation } from "./policy";
export {
  commandsForExecPolicy,
  parseShellLcPlainCommands,
  parseShellLcSingleCommandPrefix,
  extractBashScript,
} from "./shell-split";
export { isKnownSafeCommand, commandMightBeDangerous, isSafeToCallWithExec } from "./safety";
export {
  proposedAmendment,
  amendmentLine,
  appendAllowPrefixRule,
  isBannedPrefix,
  BANNED_PREFIX_SUGGESTIONS,
} from "./remember";
export {
  revokeCall,
  narrowCall,
  removeAlternative,
  setCallDecision,
  addPrefixRule,
  isNarrowerPattern,
  renderPattern,
  RulesEditRefused,
} from "./rules-edit";
export type { RulesEdit } from "./rules-edit";
export { parseCodexConfig, resolveModes, trustForDir, activeProjectTrust, hooksEnabled } from "./config";
export type { ConfigToml, ResolvedModes, TrustLevel } from "./config";
export { setProjectTrust, setApprovalPolicy, setSandboxMode, ConfigEditRefused } from "./config-edit";
export { parseRequirements } from "./requirements";
export {
  installCodexHooks,
  removeCodexHooks,
  codexHookCommand,
  isCockpitCodexHandler,
  codexHookOutput,
  CodexHookPayload,
  CODEX_HOOK_EVENTS,
  HooksFileRefused,
} from "./hooks";
export type { CodexPermissionOutput } from "./hooks";
export { shlexSplit, shlexJoin } from "./shlex";
export type * from "./types";
