import type { AST } from "toml-eslint-parser";
import { parseGeminiToml, parsePolicyFile, ruleTables } from "./toml-policy";
import type { GeminiDecision, GeminiMode, TierName } from "./types";

/**
 * In-place edits of Gemini policy files: revoke (delete) a `[[rule]]` table, narrow it (set or remove keys) or
 * add one. Positions come from toml-eslint-parser, so comments and every byte outside the edited span stay as
 * they were. Pure text → text; each result is re-parsed and checked before it is returned. (Gemini itself
 * re-serializes auto-saved.toml with @iarna/toml and loses comments when it saves a rule.)
 */

export type TomlValue = string | number | boolean | string[];

/** The fields a cockpit edit may write into a `[[rule]]` table. */
export interface RuleSpec {
  toolName: string | string[];
  mcpName?: string;
  subagent?: string;
  commandPrefix?: string | string[];
  commandRegex?: string;
  argsPattern?: string;
  decision: GeminiDecision;
  priority: number;
  modes?: GeminiMode[];
  interactive?: boolean;
  allowRedirection?: boolean;
  denyMessage?: string;
}

const KEY_ORDER: (keyof RuleSpec)[] = [
  "toolName", "mcpName", "subagent", "commandPrefix", "commandRegex", "argsPattern", "decision", "priority", "modes",
  "interactive", "allowRedirection", "denyMessage",
]; // prettier-ignore

export class TomlEditError extends Error {}

/** A TOML value as text: basic strings (JSON escapes are valid TOML; DEL is escaped too), arrays, numbers, booleans. */
export function tomlValue(v: TomlValue): string {
  if (Array.isArray(v)) return `[${v.map((s) => tomlValue(s)).join(", ")}]`;
  if (typeof v === "string") return JSON.stringify(v).replace(/\u007f/g, "\\u007F");
  if (typeof v === "number") {
    if (!Number.isInteger(v)) throw new TomlEditError(`only integers are written, got ${v}`);
    return String(v);
  }
  return v ? "true" : "false";
}

const BARE_KEY = /^[A-Za-z0-9_-]+$/;
const keyText = (k: string) => (BARE_KEY.test(k) ? k : JSON.stringify(k));

function parse(text: string): { ast: AST.TOMLProgram; tables: ReturnType<typeof ruleTables> } {
  let parsed;
  try {
    parsed = parseGeminiToml(text);
  } catch (e) {
    throw new TomlEditError(`the file is not valid TOML, so it is left as it is: ${(e as Error).message}`);
  }
  return { ast: parsed.ast, tables: ruleTables(parsed.ast, parsed.value) };
}

function tableNode(ast: AST.TOMLProgram, index: number): AST.TOMLTable {
  let i = 0;
  for (const node of ast.body[0].body) {
    if (
      node.type === "TOMLTable" &&
      node.kind === "array" &&
      node.resolvedKey.length === 2 &&
      node.resolvedKey[0] === "rule"
    ) {
      if (i === index) return node;
      i++;
    }
  }
  throw new TomlEditError(`there is no [[rule]] #${index + 1} in the file`);
}

const lineStart = (text: string, at: number) => text.lastIndexOf("\n", at - 1) + 1;
function lineEnd(text: string, at: number): number {
  const nl = text.indexOf("\n", at);
  return nl === -1 ? text.length : nl + 1;
}

/** Check that the edited file still loads as Gemini reads it, with no new errors. */
function verify(before: string, after: string, tier: TierName): void {
  const b = parsePolicyFile({ file: "edit.toml", content: before, tier });
  const a = parsePolicyFile({ file: "edit.toml", content: after, tier });
  if (a.invalid)
    throw new TomlEditError(
      `the edit would make the file invalid for Gemini: ${a.errors[0]?.details ?? a.errors[0]?.message}`,
    );
  const count = (x: typeof a) => x.errors.filter((e) => e.severity === "error").length;
  if (count(a) > count(b)) {
    const fresh = a.errors.filter((e) => e.severity === "error").at(-1);
    throw new TomlEditError(`the edit would add an error: ${fresh?.details ?? fresh?.message}`);
  }
}

/** Delete `[[rule]]` #index (its header and keys; comments around it stay). */
export function revokeRule(text: string, index: number, tier: TierName = "user"): string {
  const { ast } = parse(text);
  const node = tableNode(ast, index);
  const start = lineStart(text, node.range[0]);
  let end = lineEnd(text, node.range[1] - 1);
  // Swallow one blank line after the table so revoking does not leave a growing gap.
  const rest = text.slice(end);
  const blank = /^[ \t]*\r?\n/.exec(rest);
  if (
    blank &&
    (start === 0 || /\n[ \t]*\r?\n$/.test(text.slice(0, start)) || rest.slice(blank[0].length).startsWith("["))
  ) {
    end += blank[0].length;
  }
  const after = text.slice(0, start) + text.slice(end);
  verify(text, after, tier);
  return after;
}

/** Set (or, with `undefined`, remove) keys of `[[rule]]` #index, in place. */
export function editRule(
  text: string,
  index: number,
  changes: Partial<Record<keyof RuleSpec, TomlValue | undefined>>,
  tier: TierName = "user",
): string {
  const { ast } = parse(text);
  const node = tableNode(ast, index);
  type Edit = { start: number; end: number; text: string };
  const edits: Edit[] = [];
  const insert: string[] = [];
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  for (const [key, value] of Object.entries(changes) as [string, TomlValue | undefined][]) {
    const kv = node.body.find(
      (b) =>
        b.key.keys.length === 1 &&
        (b.key.keys[0].type === "TOMLBare" ? b.key.keys[0].name : b.key.keys[0].value) === key,
    );
    if (kv) {
      if (value === undefined) {
        const s = lineStart(text, kv.range[0]);
        const lineText = text.slice(s, lineEnd(text, kv.range[1] - 1));
        const others = node.body.some((b) => b !== kv && b.range[0] >= s && b.range[0] < s + lineText.length);
        if (others) edits.push({ start: kv.range[0], end: kv.range[1], text: "" });
        else edits.push({ start: s, end: lineEnd(text, kv.range[1] - 1), text: "" });
      } else {
        edits.push({ start: kv.value.range[0], end: kv.value.range[1], text: tomlValue(value) });
      }
    } else if (value !== undefined) {
      insert.push(`${keyText(key)} = ${tomlValue(value)}`);
    }
  }
  if (insert.length > 0) {
    const last = node.body.at(-1);
    const anchor = last ? last.range[1] : node.key.range[1] + 2; // after `]]`
    const at = lineEnd(text, anchor - 1);
    const indent = last ? /^[ \t]*/.exec(text.slice(lineStart(text, last.range[0])))![0] : "";
    const needsNl = at === text.length && !text.endsWith("\n") ? eol : "";
    edits.push({ start: at, end: at, text: needsNl + insert.map((l) => indent + l + eol).join("") });
  }
  edits.sort((a, b) => b.start - a.start);
  let after = text;
  for (const e of edits) after = after.slice(0, e.start) + e.text + after.slice(e.end);
  verify(text, after, tier);
  return after;
}

/** The TOML of one new `[[rule]]` table. */
export function ruleTableText(rule: RuleSpec, eol = "\n"): string {
  const lines = ["[[rule]]"];
  for (const k of KEY_ORDER) {
    const v = rule[k];
    if (v !== undefined) lines.push(`${k} = ${tomlValue(v as TomlValue)}`);
  }
  return lines.join(eol) + eol;
}

/** Append a `[[rule]]` table at the end of the file (an empty or missing file gets just the table). */
export function addRule(text: string, rule: RuleSpec, tier: TierName = "user"): string {
  if (text.trim()) parse(text);
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  let prefix = text;
  if (prefix && !prefix.endsWith("\n")) prefix += eol;
  if (prefix.trim()) prefix += eol;
  const after = prefix + ruleTableText(rule, eol);
  verify(text, after, tier);
  return after;
}
