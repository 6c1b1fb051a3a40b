/**
 * Gemini CLI: its permission stores, in-place edits, decisions, "always allow" and the hook connector's pure
 * parts. Not wired into the shared agent list yet (issue 21 does that); see docs/agents/gemini.md and
 * /work/coord/log-gemini.md for the API. I/O lives in ./io/ (stores, host view, shell wasm loader).
 */
export {
  decideGemini,
  ruleMatches,
  isBuildFile,
  type EngineOptions,
  type GeminiVerdict,
  type CockpitDecision,
} from "./engine";
export { decideWithStores, effectiveMode, type DecideInput } from "./decide";
export { parsePolicyFile, parseGeminiToml, ruleTables, type ParsedPolicyFile, type RuleTable } from "./toml-policy";
export { revokeRule, editRule, addRule, ruleTableText, tomlValue, TomlEditError, type RuleSpec } from "./toml-edit";
export { rememberRule, applyRemembered, type RememberedRule } from "./remember";
export {
  settingsRules,
  mergePolicySettings,
  PolicySettingsSchema,
  type PolicySettings,
  type SettingsLayer,
} from "./settings-rules";
export { parseTrustedFolders, workspaceTrust, type TrustVerdict, type TrustFile } from "./trust";
export { builtinPolicyFiles, BUILTIN_POLICY_DIR } from "./builtin";
export { createGeminiShell, stripShellWrapper, commandRoots, type GeminiShell } from "./shell";
export { unknownHost, plainHost, type HostFacts } from "./host";
export { stableStringify, buildArgsPatterns, isSafeRegExp, unsafeRegExpReason, escapeRegex } from "./patterns";
export * from "./hooks";
export * from "./types";
