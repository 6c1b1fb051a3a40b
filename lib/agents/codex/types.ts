/**
 * Shared types of the Codex core (lib/agents/codex). Codex's own names are kept where they exist
 * (codex-rs/execpolicy: Decision, PatternToken, PrefixRule, RuleMatch) so the source can be compared.
 */

/** Codex's execpolicy decision, ordered Allow < Prompt < Forbidden (execpolicy/src/decision.rs). */
export type CodexDecision = "allow" | "prompt" | "forbidden";

const RANK: Record<CodexDecision, number> = { allow: 0, prompt: 1, forbidden: 2 };
export function stricter(a: CodexDecision, b: CodexDecision): CodexDecision {
  return RANK[a] >= RANK[b] ? a : b;
}
export function strictest(decisions: Iterable<CodexDecision>): CodexDecision | undefined {
  let out: CodexDecision | undefined;
  for (const d of decisions) out = out ? stricter(out, d) : d;
  return out;
}

/** One position of a pattern: a literal token or a list of alternatives (rule.rs PatternToken). */
export type PatternToken = string | readonly string[];

/** Where a rule came from: file, 1-based line, and byte/char offsets of the whole call statement. */
export interface RuleSource {
  file: string;
  line: number;
  endLine: number;
  /** UTF-16 offsets into the file text of the statement (call plus trailing `;`), for edits. */
  start: number;
  end: number;
  /** Which layer the file belongs to. */
  layer: CodexLayer;
}

export type CodexLayer = "system" | "user" | "project" | "requirements" | "session";

/**
 * A prefix rule as Codex stores it: one rule per first-position alternative (parser.rs expands them),
 * `rest` keeps later alternatives as lists. `pattern` is the whole pattern as written (for display/edits).
 */
export interface PrefixRule {
  kind: "prefix";
  first: string;
  rest: readonly PatternToken[];
  decision: CodexDecision;
  justification?: string;
  /** The pattern as written in the file, first-position alternatives included. */
  pattern: readonly PatternToken[];
  source: RuleSource;
}

export interface HostExecutable {
  name: string;
  /** Normalized absolute paths, duplicates removed, in file order. */
  paths: readonly string[];
  source: RuleSource;
}

export interface NetworkRule {
  host: string;
  protocol: "http" | "https" | "socks5_tcp" | "socks5_udp";
  decision: CodexDecision;
  justification?: string;
  source: RuleSource;
}

/** A rule that matched an argv (rule.rs RuleMatch::PrefixRuleMatch). */
export interface PrefixRuleMatch {
  kind: "prefix";
  matchedPrefix: string[];
  decision: CodexDecision;
  justification?: string;
  /** Set when the match went through the basename fallback for an absolute program path. */
  resolvedProgram?: string;
  rule: PrefixRule;
}

/** No rule matched: the decision came from Codex's heuristics (RuleMatch::HeuristicsRuleMatch). */
export interface HeuristicsRuleMatch {
  kind: "heuristics";
  command: string[];
  decision: CodexDecision;
  /** Which heuristic decided, for --explain. */
  reason: HeuristicReason;
}

export type HeuristicReason =
  | "known-safe"
  | "dangerous-never-forbidden"
  | "dangerous-full-access"
  | "dangerous-prompt"
  | "never-or-on-failure"
  | "untrusted"
  | "on-request-unrestricted"
  | "on-request-sandboxed"
  | "on-request-escalation";

export type RuleMatch = PrefixRuleMatch | HeuristicsRuleMatch;
