/**
 * Codex's "don't ask again": which prefix it offers (core/src/exec_policy.rs
 * derive_requested_execpolicy_amendment_from_prefix_rule, try_derive_execpolicy_amendment_for_prompt_rules,
 * BANNED_PREFIX_SUGGESTIONS) and the exact line it appends to `$CODEX_HOME/rules/default.rules`
 * (execpolicy/src/amend.rs blocking_append_allow_prefix_rule). Pure: text in, text out.
 */
import { addRule, checkMultiple, type CodexPolicy, type Evaluation, type MatchOptions } from "./policy";
import type { ExecPolicyCommands } from "./shell-split";
import type { PrefixRule, RuleMatch } from "./types";

/** Prefixes Codex never offers from the model's suggestion (exec_policy.rs BANNED_PREFIX_SUGGESTIONS). */
export const BANNED_PREFIX_SUGGESTIONS: readonly (readonly string[])[] = [
  ["python3"], ["python3", "-"], ["python3", "-c"], ["python"], ["python", "-"], ["python", "-c"], ["py"], ["py", "-3"],
  ["pythonw"], ["pyw"], ["pypy"], ["pypy3"], ["git"], ["bash"], ["bash", "-lc"], ["sh"], ["sh", "-c"], ["sh", "-lc"],
  ["zsh"], ["zsh", "-lc"], ["/bin/zsh"], ["/bin/zsh", "-lc"], ["/bin/bash"], ["/bin/bash", "-lc"], ["pwsh"],
  ["pwsh", "-Command"], ["pwsh", "-c"], ["powershell"], ["powershell", "-Command"], ["powershell", "-c"],
  ["powershell.exe"], ["powershell.exe", "-Command"], ["powershell.exe", "-c"], ["env"], ["sudo"], ["node"],
  ["node", "-e"], ["perl"], ["perl", "-e"], ["ruby"], ["ruby", "-e"], ["php"], ["php", "-r"], ["lua"], ["lua", "-e"],
  ["osascript"],
]; // prettier-ignore

export function isBannedPrefix(prefix: readonly string[]): boolean {
  return BANNED_PREFIX_SUGGESTIONS.some((b) => b.length === prefix.length && b.every((t, i) => t === prefix[i]));
}

const DEFAULT_SOURCE = { file: "(amendment)", line: 0, endLine: 0, start: 0, end: 0, layer: "user" as const };

function withAllow(policy: CodexPolicy, prefix: readonly string[]): CodexPolicy {
  const copy: CodexPolicy = {
    rulesByProgram: new Map([...policy.rulesByProgram].map(([k, v]) => [k, v.slice()])),
    hostExecutables: policy.hostExecutables,
    networkRules: policy.networkRules,
  };
  const rule: PrefixRule = {
    kind: "prefix",
    first: prefix[0]!,
    rest: prefix.slice(1),
    decision: "allow",
    pattern: prefix.slice(),
    source: DEFAULT_SOURCE,
  };
  addRule(copy, rule);
  return copy;
}

/**
 * The prefix Codex proposes with a prompt (ExecApprovalRequirement::NeedsApproval proposed_execpolicy_amendment),
 * or undefined when it offers no "don't ask again".
 */
export function proposedAmendment(
  call: { input: { prefix_rule?: string[] } },
  evaluation: Evaluation,
  split: ExecPolicyCommands,
  policy: CodexPolicy,
  fallback: (cmd: readonly string[]) => RuleMatch,
  opts: MatchOptions,
): string[] | undefined {
  const requested = call.input.prefix_rule;
  if (
    requested &&
    requested.length > 0 &&
    !isBannedPrefix(requested) &&
    !evaluation.matchedRules.some((m) => m.kind === "prefix")
  ) {
    const amended = withAllow(policy, requested);
    if (split.commands.every((c) => checkMultiple(amended, [c], fallback, opts).decision === "allow"))
      return requested.slice();
  }
  if (split.complex) return undefined;
  if (evaluation.matchedRules.some((m) => m.kind === "prefix" && m.decision === "prompt")) return undefined;
  const first = evaluation.matchedRules.find((m) => m.kind === "heuristics" && m.decision === "prompt");
  return first && first.kind === "heuristics" ? first.command.slice() : undefined;
}

/** The exact line Codex appends: `prefix_rule(pattern=["tok", …], decision="allow")` (tokens JSON-encoded). */
export function amendmentLine(prefix: readonly string[]): string {
  if (prefix.length === 0) throw new Error("prefix rule requires at least one token");
  return `prefix_rule(pattern=[${prefix.map((t) => JSON.stringify(t)).join(", ")}], decision="allow")`;
}

/**
 * The new text of default.rules after appending, or `undefined` when an identical line is already there
 * (amend.rs append_locked_line: `lines()` equality, a newline added first when the file lacks one).
 */
export function appendAllowPrefixRule(text: string, prefix: readonly string[]): string | undefined {
  const line = amendmentLine(prefix);
  const lines = text.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  if (lines.includes(line)) return undefined;
  const sep = text !== "" && !text.endsWith("\n") ? "\n" : "";
  return `${text}${sep}${line}\n`;
}
