/**
 * How the cockpit writes and reads Codex rules as one line of text: an entry's `rule`, a decision's deciding rule,
 * what "always allow" stores and what a person types to add or narrow an entry. The canonical form is the line
 * Codex's own amend writer produces (`prefix_rule(pattern=["git", "push"], decision="allow")`), so a decision's rule
 * and a listed entry compare equal. Pure.
 */
import type { Parser } from "web-tree-sitter";
import { renderPattern } from "./rules-edit";
import { parseRulesFile } from "./rules-parse";
import { shlexJoin } from "./shlex";
import type { CodexDecision, CodexLayer, NetworkRule, PatternToken } from "./types";

export type CockpitAction = "allow" | "ask" | "deny";

export const TO_ACTION: Record<CodexDecision, CockpitAction> = { allow: "allow", prompt: "ask", forbidden: "deny" };
export const TO_DECISION: Record<CockpitAction, CodexDecision> = { allow: "allow", ask: "prompt", deny: "forbidden" };

/** `prefix_rule(pattern=[…], decision="…")`: the justification is left out (it does not change what matches). */
export function prefixRuleText(pattern: readonly PatternToken[], decision: CodexDecision): string {
  return `prefix_rule(pattern=${renderPattern(pattern)}, decision=${JSON.stringify(decision)})`;
}

export function networkRuleText(rule: Pick<NetworkRule, "host" | "protocol" | "decision">): string {
  const decision = rule.decision === "forbidden" ? "deny" : rule.decision;
  return `network_rule(host=${JSON.stringify(rule.host)}, protocol=${JSON.stringify(rule.protocol)}, decision=${JSON.stringify(decision)})`;
}

/** The loudest state: one broken file, and Codex runs with no rules at all. */
export function failureBanner(f: { file: string; line: number; message: string }): string {
  return `Codex is ignoring all your rules because of ${f.file}, line ${f.line}: ${f.message}`;
}

/** A session entry for exactly one command (Codex's "don't ask again for this command" this session): its argv. */
export function exactCommandText(argv: readonly string[]): string {
  return JSON.stringify(argv);
}

/** A pattern as people read it: `git push|fetch origin`. */
export function patternWords(pattern: readonly PatternToken[]): string {
  return pattern
    .map((t) => (typeof t === "string" ? shlexJoin([t]) : t.map((a) => shlexJoin([a])).join("|")))
    .join(" ");
}

/** Scope of a layer as the cockpit lists it: the user's files are global, a project's the workspace's. */
export function scopeOfLayer(layer: CodexLayer): "session" | "workspace" | "global" | "managed" {
  if (layer === "project") return "workspace";
  if (layer === "user") return "global";
  if (layer === "session") return "session";
  return "managed";
}

/** A rule a person wrote: a prefix rule (its pattern, and its decision when the text names one). */
export type RuleInput =
  | { kind: "prefix"; pattern: PatternToken[]; decision?: CodexDecision; justification?: string }
  | { kind: "exact"; argv: string[] };

const Token = (t: unknown): t is string => typeof t === "string" && t.length > 0;

/**
 * Read rule text: `prefix_rule(pattern=[…], decision=…, justification=…)` as Codex reads it (through the `.rules`
 * reader, so what Codex rejects is rejected), or a JSON pattern `["git", ["status", "log"]]`.
 */
export function parseRuleInput(
  text: string,
  python: Parser,
): { ok: true; value: RuleInput } | { ok: false; error: string } {
  const t = text.trim();
  if (t.startsWith("[")) {
    let value: unknown;
    try {
      value = JSON.parse(t);
    } catch {
      return { ok: false, error: `not a JSON pattern: ${t.slice(0, 80)}` };
    }
    if (!Array.isArray(value) || value.length === 0)
      return { ok: false, error: "a pattern is a non-empty list of tokens" };
    const pattern: PatternToken[] = [];
    for (const tok of value) {
      if (Token(tok)) pattern.push(tok);
      else if (Array.isArray(tok) && tok.length > 0 && tok.every(Token)) pattern.push(tok.length === 1 ? tok[0] : tok);
      else return { ok: false, error: "each token is a non-empty string or a non-empty list of alternatives" };
    }
    return { ok: true, value: { kind: "prefix", pattern } };
  }
  if (!/^prefix_rule\s*\(/.test(t))
    return { ok: false, error: 'write prefix_rule(pattern=[…], decision="…") or a JSON pattern ["git", "status"]' };
  const file = parseRulesFile("(rule)", t + "\n", "session", python);
  if (file.status.kind !== "ok")
    return { ok: false, error: file.status.kind === "broken" ? file.status.message : file.status.reason };
  const calls = file.calls.filter((c) => c.fn === "prefix_rule");
  if (calls.length !== 1 || file.calls.length !== 1) return { ok: false, error: "give exactly one prefix_rule(…)" };
  if (file.examples.some((e) => e.match.length || e.notMatch.length))
    return { ok: false, error: "match / not_match examples are not taken here; add them in the file" };
  const rule = calls[0]!.prefixRules[0]!;
  return {
    ok: true,
    value: {
      kind: "prefix",
      pattern: rule.pattern.map((p) => (typeof p === "string" ? p : [...p])),
      ...(calls[0]!.args.decision ? { decision: rule.decision } : {}),
      ...(rule.justification !== undefined ? { justification: rule.justification } : {}),
    },
  };
}

/** A session row's text: an exact command (a JSON list of strings) or a prefix rule. */
export function parseSessionRule(
  text: string,
  python: Parser,
): { ok: true; value: RuleInput } | { ok: false; error: string } {
  const t = text.trim();
  if (t.startsWith("[")) {
    try {
      const v = JSON.parse(t) as unknown;
      if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "string"))
        return { ok: true, value: { kind: "exact", argv: v as string[] } };
    } catch {
      // not an exact command: read it as a pattern below
    }
  }
  return parseRuleInput(t, python);
}
