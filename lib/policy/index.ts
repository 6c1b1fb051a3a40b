/**
 * Pure policy engine: rule grammar, matchers, the decision ladder and narrowing proofs.
 * No database, framework or file-system imports; stores hand it parsed rules.
 * Shell commands need a parser in `PolicyContext.shell` (`createShellParser`; on Node `loadShellParser` in
 * lib/agents/shared/shell-parser.ts).
 */
export type {
  Action,
  Agent,
  Dialect,
  Scope,
  Mode,
  RuleSource,
  Grant,
  Specifier,
  ShellDialect,
  Rule,
  ParseResult,
  MevedelRuleData,
  ToolCall,
  PolicyContext,
  StepName,
  TraceEntry,
  Cause,
  Decision,
  NarrowProof,
  EntrySpec,
  ShellPart,
  ShellAnalysis,
} from "./types";
export { parseRule, formatRule } from "./rule-parse";
export {
  parseMevedelRule,
  parseMevedelRuleText,
  parseMevedelGrant,
  formatMevedelRule,
  parseRuleText,
} from "./mevedel-rules";
export { decide } from "./decide";
export { rememberChoices, rememberRules, withSuggestions, type RememberChoice, type RememberLevel } from "./remember";
export { isNarrower } from "./narrow";
export { normalizeMode } from "./modes";
export { canonicalTool } from "./tools";
export { analyzeShell, createShellParser, type ShellParser } from "./shell/analyze";
export { explicitAllow } from "./basis";
