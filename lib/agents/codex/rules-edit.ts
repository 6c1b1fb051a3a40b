/**
 * In-place edits of a Codex `.rules` file: revoke a call, drop one alternative, narrow a pattern, change a
 * decision, add a prefix rule. Every other byte (comments, blank lines, the other calls' layout) is kept. The new
 * text is re-read and its `match`/`not_match` examples re-checked; an edit that would make Codex reject the file
 * (and so ignore every rules file) is refused. Pure: text in, text out; the caller writes atomically.
 */
import type { Parser } from "web-tree-sitter";
import { loadPolicy } from "./policy";
import { parseRulesFile, type RuleCall, type RulesFile } from "./rules-parse";
import type { CodexDecision, PatternToken } from "./types";

export class RulesEditRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RulesEditRefused";
  }
}

export interface RulesEdit {
  text: string;
  /** The re-read file (its status is never "broken"). */
  file: RulesFile;
}

/** Render a pattern the way Codex's amend writer does: JSON strings, `, ` separators, nested lists for alternatives. */
export function renderPattern(pattern: readonly PatternToken[]): string {
  const tok = (t: PatternToken) =>
    typeof t === "string" ? JSON.stringify(t) : `[${t.map((x) => JSON.stringify(x)).join(", ")}]`;
  return `[${pattern.map(tok).join(", ")}]`;
}

function editable(file: RulesFile): void {
  if (file.status.kind === "broken")
    throw new RulesEditRefused(
      `${file.path}:${file.status.line}: ${file.status.message} — fix the file first; the cockpit does not edit a broken file`,
    );
  if (file.status.kind === "opaque")
    throw new RulesEditRefused(
      `${file.path}:${file.status.line}: the file ${file.status.reason}; it is read-only in the cockpit`,
    );
}

function callAt(file: RulesFile, line: number): RuleCall {
  const call = file.calls.find((c) => c.source.line === line);
  if (!call) throw new RulesEditRefused(`${file.path}: no rule starts on line ${line}`);
  return call;
}

/** The editable prefix_rule call starting on `line`. */
function prefixCallAt(file: RulesFile, line: number): RuleCall {
  editable(file);
  const call = callAt(file, line);
  if (call.fn !== "prefix_rule") throw new RulesEditRefused(`${file.path}:${line} is not a prefix_rule`);
  return call;
}

/** Re-read and re-check the edited text; refuse anything Codex would reject. */
function finish(file: RulesFile, text: string, python: Parser, context: readonly RulesFile[]): RulesEdit {
  const next = parseRulesFile(file.path, text, file.layer, python);
  if (next.status.kind === "broken")
    throw new RulesEditRefused(
      `the edit would break ${file.path} (line ${next.status.line}: ${next.status.message}); Codex would then ignore all rules`,
    );
  const loaded = loadPolicy([...context.filter((f) => f.path !== file.path), next]);
  if (loaded.failure && loaded.failure.file === file.path)
    throw new RulesEditRefused(
      `the edit would make ${file.path}:${loaded.failure.line} fail its own examples (${loaded.failure.message}); Codex would then ignore all rules`,
    );
  return { text, file: next };
}

function lineStart(text: string, at: number): number {
  return text.lastIndexOf("\n", at - 1) + 1;
}

/** Delete the call statement on `line`; its line goes too when nothing but whitespace is left on it. */
export function revokeCall(
  file: RulesFile,
  line: number,
  python: Parser,
  context: readonly RulesFile[] = [],
): RulesEdit {
  editable(file);
  const call = callAt(file, line);
  const { text } = file;
  let start = call.source.start;
  let end = call.source.end;
  const ls = lineStart(text, start);
  if (text.slice(ls, start).trim() === "") start = ls;
  const nl = text.indexOf("\n", end);
  const tail = text.slice(end, nl < 0 ? text.length : nl);
  if (tail.trim() === "") end = nl < 0 ? text.length : nl + 1;
  else if (start === ls) end += tail.length - tail.trimStart().length; // keep a trailing comment, flush left
  return finish(file, text.slice(0, start) + text.slice(end), python, context);
}

function replaceArg(file: RulesFile, call: RuleCall, name: string, value: string, after: string): string {
  const { text } = file;
  const arg = call.args[name];
  if (arg) return text.slice(0, arg.start) + value + text.slice(arg.end);
  const anchor = call.args[after];
  if (!anchor) throw new RulesEditRefused(`${file.path}:${call.source.line}: cannot place ${name}`);
  return text.slice(0, anchor.end) + `, ${name} = ${value}` + text.slice(anchor.end);
}

function patternOf(call: RuleCall): readonly PatternToken[] {
  const rule = call.prefixRules[0];
  if (!rule) throw new RulesEditRefused("not a prefix rule");
  return rule.pattern;
}

function alts(t: PatternToken): readonly string[] {
  return typeof t === "string" ? [t] : t;
}

/** True when every argv `narrow` matches is matched by `wide` (same or longer, alternatives a subset). */
export function isNarrowerPattern(narrow: readonly PatternToken[], wide: readonly PatternToken[]): boolean {
  if (narrow.length < wide.length || narrow.length === 0) return false;
  return wide.every((w, i) => alts(narrow[i]!).every((a) => alts(w).includes(a)));
}

/** Replace the pattern of the prefix rule on `line` with a narrower one. */
export function narrowCall(
  file: RulesFile,
  line: number,
  pattern: readonly PatternToken[],
  python: Parser,
  context: readonly RulesFile[] = [],
): RulesEdit {
  const call = prefixCallAt(file, line);
  const old = patternOf(call);
  if (pattern.some((t) => typeof t !== "string" && t.length === 0))
    throw new RulesEditRefused("an alternative list cannot be empty");
  if (!isNarrowerPattern(pattern, old))
    throw new RulesEditRefused(`${renderPattern(pattern)} is not narrower than ${renderPattern(old)}`);
  if (renderPattern(pattern) === renderPattern(old)) throw new RulesEditRefused("the pattern is unchanged");
  return finish(file, replaceArg(file, call, "pattern", renderPattern(pattern), "pattern"), python, context);
}

/** Drop one alternative at `position` of the pattern on `line` (revoking e.g. only `sh` from `[["bash","sh"], "-c"]`). */
export function removeAlternative(
  file: RulesFile,
  line: number,
  position: number,
  token: string,
  python: Parser,
  context: readonly RulesFile[] = [],
): RulesEdit {
  const call = callAt(file, line);
  const old = patternOf(call);
  const at = old[position];
  if (at === undefined || typeof at === "string" || !at.includes(token))
    throw new RulesEditRefused(
      `position ${position} of ${renderPattern(old)} has no alternative ${JSON.stringify(token)}`,
    );
  const left = at.filter((a) => a !== token);
  const next = old.map((t, i) => (i === position ? (left.length === 1 ? left[0]! : left) : t));
  return narrowCall(file, line, next, python, context);
}

/** Set the decision of the prefix rule on `line` (inserted after `pattern` when the call has none). */
export function setCallDecision(
  file: RulesFile,
  line: number,
  decision: CodexDecision,
  python: Parser,
  context: readonly RulesFile[] = [],
): RulesEdit {
  const call = prefixCallAt(file, line);
  const value = JSON.stringify(decision);
  const arg = call.args.decision;
  if (arg && !arg.keyword)
    return finish(file, file.text.slice(0, arg.start) + value + file.text.slice(arg.end), python, context);
  return finish(file, replaceArg(file, call, "decision", value, "pattern"), python, context);
}

/** Append `prefix_rule(pattern=[…], decision="…"[, justification="…"])` on its own line. */
export function addPrefixRule(
  file: RulesFile,
  rule: { pattern: readonly PatternToken[]; decision: CodexDecision; justification?: string },
  python: Parser,
  context: readonly RulesFile[] = [],
): RulesEdit {
  editable(file);
  if (rule.pattern.length === 0) throw new RulesEditRefused("pattern cannot be empty");
  if (rule.justification !== undefined && rule.justification.trim() === "")
    throw new RulesEditRefused("justification cannot be empty");
  const just = rule.justification !== undefined ? `, justification=${JSON.stringify(rule.justification)}` : "";
  const line = `prefix_rule(pattern=${renderPattern(rule.pattern)}, decision=${JSON.stringify(rule.decision)}${just})`;
  if (file.text.split("\n").some((l) => l.replace(/\r$/, "") === line))
    throw new RulesEditRefused("the same rule is already there");
  const sep = file.text !== "" && !file.text.endsWith("\n") ? "\n" : "";
  return finish(file, `${file.text}${sep}${line}\n`, python, context);
}
