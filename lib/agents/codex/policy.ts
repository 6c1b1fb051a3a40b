/**
 * Codex's exec policy as data, and its matching (execpolicy/src/policy.rs, rule.rs): rules indexed by first
 * token, exact-token prefix matching with alternatives, strictest decision over every match, the basename
 * fallback gated by `host_executable`. `loadPolicy` reproduces how Codex loads the files in order and empties the
 * whole policy when one of them fails (core/src/exec_policy.rs load_exec_policy_with_warning).
 */
import { absolutize, fileName } from "./paths";
import type { RulesFile } from "./rules-parse";
import { shlexJoin } from "./shlex";
import {
  strictest,
  type CodexDecision,
  type HostExecutable,
  type NetworkRule,
  type PatternToken,
  type PrefixRule,
  type PrefixRuleMatch,
  type RuleMatch,
} from "./types";

export interface CodexPolicy {
  rulesByProgram: Map<string, PrefixRule[]>;
  /** By name; a later definition replaces an earlier one (test host_executable_last_definition_wins). */
  hostExecutables: Map<string, HostExecutable>;
  networkRules: NetworkRule[];
}

export function emptyPolicy(): CodexPolicy {
  return { rulesByProgram: new Map(), hostExecutables: new Map(), networkRules: [] };
}

export function addRule(policy: CodexPolicy, rule: PrefixRule): void {
  const list = policy.rulesByProgram.get(rule.first);
  if (list) list.push(rule);
  else policy.rulesByProgram.set(rule.first, [rule]);
}

/** Options for matching; Codex core always resolves host executables (exec_policy.rs MatchOptions). */
export interface MatchOptions {
  resolveHostExecutables: boolean;
  /** The directory relative program paths resolve against (Codex: its process working directory). */
  cwd: string;
  /** Where `~` expands to. */
  home?: string;
}

function tokenMatches(pattern: PatternToken, token: string): boolean {
  return typeof pattern === "string" ? pattern === token : pattern.includes(token);
}

/** PrefixPattern::matches_prefix: the matched prefix, or undefined. */
export function matchPrefix(rule: PrefixRule, cmd: readonly string[]): string[] | undefined {
  const len = rule.rest.length + 1;
  if (cmd.length < len || cmd[0] !== rule.first) return undefined;
  for (let i = 0; i < rule.rest.length; i++) if (!tokenMatches(rule.rest[i]!, cmd[i + 1]!)) return undefined;
  return cmd.slice(0, len);
}

function toMatch(rule: PrefixRule, matchedPrefix: string[], resolvedProgram?: string): PrefixRuleMatch {
  return {
    kind: "prefix",
    matchedPrefix,
    decision: rule.decision,
    ...(rule.justification !== undefined ? { justification: rule.justification } : {}),
    ...(resolvedProgram !== undefined ? { resolvedProgram } : {}),
    rule,
  };
}

/** Policy::matches_for_command_with_options without the heuristics fallback. */
export function matchRules(policy: CodexPolicy, cmd: readonly string[], opts: MatchOptions): PrefixRuleMatch[] {
  const first = cmd[0];
  if (first === undefined) return [];
  const exact: PrefixRuleMatch[] = [];
  for (const rule of policy.rulesByProgram.get(first) ?? []) {
    const m = matchPrefix(rule, cmd);
    if (m) exact.push(toMatch(rule, m));
  }
  if (exact.length || !opts.resolveHostExecutables) return exact;
  const program = absolutize(first, opts.cwd, opts.home);
  const base = fileName(program);
  if (base === undefined) return [];
  const rules = policy.rulesByProgram.get(base);
  if (!rules) return [];
  const host = policy.hostExecutables.get(base);
  if (host && !host.paths.includes(program)) return [];
  const baseCmd = [base, ...cmd.slice(1)];
  const out: PrefixRuleMatch[] = [];
  for (const rule of rules) {
    const m = matchPrefix(rule, baseCmd);
    if (m) out.push(toMatch(rule, m, program));
  }
  return out;
}

export interface Evaluation {
  decision: CodexDecision;
  matchedRules: RuleMatch[];
  /** The matches of each command, in order (their concatenation is `matchedRules`). */
  perCommand: RuleMatch[][];
}

/** Policy::check_multiple_with_options: every command's matches (or its heuristic), strictest decision. */
export function checkMultiple(
  policy: CodexPolicy,
  commands: readonly (readonly string[])[],
  fallback: (cmd: readonly string[]) => RuleMatch,
  opts: MatchOptions,
): Evaluation {
  const perCommand: RuleMatch[][] = commands.map((cmd) => {
    const m: RuleMatch[] = matchRules(policy, cmd, opts);
    return m.length ? m : [fallback(cmd)];
  });
  const matchedRules = perCommand.flat();
  return { decision: strictest(matchedRules.map((m) => m.decision)) ?? "allow", matchedRules, perCommand };
}

/** What went wrong when Codex loads the rules: it then runs with an empty policy. */
export interface PolicyFailure {
  file: string;
  line: number;
  message: string;
}

export interface LoadedPolicy {
  /** The policy Codex runs with: empty when any file failed. */
  effective: CodexPolicy;
  /** Every rule the cockpit could read, even when Codex ignores them all (for listing and the strict floor). */
  readable: CodexPolicy;
  /** Set when Codex ignores every rules file because of this one. */
  failure?: PolicyFailure;
  /** Files whose effect the cockpit cannot fully know (listed read-only). */
  opaque: { file: string; line: number; reason: string }[];
}

/**
 * Load files in Codex's order (system → user → project root … cwd), then the requirements overlay.
 * Mirrors PolicyParser: each file is evaluated, then its `match`/`not_match` examples are checked against a
 * policy of that call's rules plus the host executables known so far (parser.rs validate_pending_examples_from).
 */
export function loadPolicy(
  files: readonly RulesFile[],
  requirements: readonly PrefixRule[] = [],
  where: { cwd: string; home?: string } = { cwd: "/" },
): LoadedPolicy {
  const readable = emptyPolicy();
  const opaque: LoadedPolicy["opaque"] = [];
  let failure: PolicyFailure | undefined;
  for (const file of files) {
    for (const h of file.hostExecutables) readable.hostExecutables.set(h.name, h);
    for (const r of file.prefixRules) addRule(readable, r);
    readable.networkRules.push(...file.networkRules);
    if (failure) continue;
    if (file.status.kind === "broken") {
      failure = { file: file.path, line: file.status.line, message: file.status.message };
      continue;
    }
    if (file.status.kind === "opaque") opaque.push({ file: file.path, ...file.status });
    const bad = checkExamples(file, readable.hostExecutables, where);
    if (bad) failure = bad;
  }
  for (const r of requirements) addRule(readable, r);
  let effective: CodexPolicy;
  if (failure) {
    effective = emptyPolicy();
    // The requirements overlay is merged after the parse succeeds, so an empty policy drops it too.
  } else {
    effective = readable;
  }
  return { effective, readable, ...(failure ? { failure } : {}), opaque };
}

function checkExamples(
  file: RulesFile,
  hosts: Map<string, HostExecutable>,
  where: { cwd: string; home?: string },
): PolicyFailure | undefined {
  for (const check of file.examples) {
    const mini: CodexPolicy = { rulesByProgram: new Map(), hostExecutables: hosts, networkRules: [] };
    for (const r of check.rules) addRule(mini, r);
    // Examples resolve program paths like the real check (rule.rs: resolve_host_executables: true).
    const opts: MatchOptions = { resolveHostExecutables: true, ...where };
    for (const ex of check.notMatch) {
      if (matchRules(mini, ex, opts).length)
        return {
          file: file.path,
          line: check.line,
          message: `not_match example \`${shlexJoin(ex)}\` matches the rule`,
        };
    }
    const unmatched = check.match.filter((ex) => matchRules(mini, ex, opts).length === 0);
    if (unmatched.length)
      return {
        file: file.path,
        line: check.line,
        message: `match example${unmatched.length > 1 ? "s" : ""} ${unmatched.map((e) => `\`${shlexJoin(e)}\``).join(", ")} did not match the rule`,
      };
  }
  return undefined;
}
