/**
 * Gemini policy rules as one line of text (the cockpit's `rule` for listings, session entries, cards and `cockpit
 * add`): the `[[rule]]` table's keys as TOML `key = value` pairs joined by ", " — what goes between the braces of an
 * inline table — e.g. `toolName = "run_shell_command", commandPrefix = "git status", decision = "allow", priority = 100`.
 * Reading one back gives the table Gemini would read. Pure.
 */
import { ruleTableText, tomlValue, type RuleSpec, type TomlValue } from "./toml-edit";
import { parseGeminiToml, parsePolicyFile } from "./toml-policy";
import type { GeminiRule, TierName } from "./types";

const ORDER = [
  "toolName", "mcpName", "subagent", "commandPrefix", "commandRegex", "argsPattern", "decision", "priority", "modes",
  "interactive", "toolAnnotations", "allowRedirection", "allow_redirection", "denyMessage", "deny_message",
]; // prettier-ignore

const BARE = /^[A-Za-z0-9_-]+$/;
const key = (k: string) => (BARE.test(k) ? k : JSON.stringify(k));

function inline(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(inline).join(", ")}]`;
  if (v && typeof v === "object")
    return `{ ${Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${key(k)} = ${inline(x)}`)
      .join(", ")} }`;
  if (typeof v === "number" && !Number.isInteger(v)) return String(v);
  return tomlValue(v as TomlValue);
}

/** A `[[rule]]` table's value as one line (known keys in Gemini's order, then any others). */
export function ruleLine(value: Record<string, unknown>): string {
  const keys = [...ORDER.filter((k) => k in value), ...Object.keys(value).filter((k) => !ORDER.includes(k))];
  return keys.map((k) => `${key(k)} = ${inline(value[k])}`).join(", ");
}

export function specLine(spec: RuleSpec): string {
  return ruleLine(spec as unknown as Record<string, unknown>);
}

export type RuleLineParse = { ok: true; table: Record<string, unknown>; toml: string } | { ok: false; error: string };

/**
 * Read a rule as a person writes it: the one-line form, optionally in braces, or a whole `[[rule]]` table. The
 * result is the `[[rule]]` TOML to write, checked as Gemini's loader checks it (a rule it would drop is refused).
 */
export function parseRuleLine(
  text: string,
  tier: TierName = "user",
  /** Keys the text may leave out (`cockpit add --action deny` gives the decision), filled in before Gemini's checks. */
  defaults: Record<string, unknown> = {},
): RuleLineParse {
  const t = text.trim();
  if (!t) return { ok: false, error: "empty rule" };
  let table: Record<string, unknown>;
  try {
    if (/^\[\[rule\]\]/.test(t)) {
      const v = parseGeminiToml(t + "\n").value as { rule?: Record<string, unknown>[] };
      if (!Array.isArray(v.rule) || v.rule.length !== 1) return { ok: false, error: "give exactly one [[rule]] table" };
      table = v.rule[0]!;
    } else {
      const body = t.startsWith("{") && t.endsWith("}") ? t.slice(1, -1) : t;
      if (/[\r\n]/.test(body))
        return { ok: false, error: "a one-line rule has no line breaks (or give a [[rule]] table)" };
      table = (parseGeminiToml(`r = { ${body} }\n`).value as { r: Record<string, unknown> }).r;
    }
  } catch (error) {
    return { ok: false, error: `not a Gemini rule: ${(error as Error).message}` };
  }
  for (const [k, v] of Object.entries(defaults)) if (!(k in table)) table[k] = v;
  const toml = tableToml(table);
  const parsed = parsePolicyFile({ file: "rule.toml", content: toml, tier });
  const problem = parsed.errors.find((e) => e.severity === "error");
  if (parsed.invalid || problem || parsed.rules.length === 0)
    return {
      ok: false,
      error: `Gemini would drop this rule: ${problem?.details ?? problem?.message ?? "it yields no rule"}`,
    };
  return { ok: true, table, toml };
}

/** The `[[rule]]` TOML of a table value (the keys Gemini reads, as one table). */
export function tableToml(table: Record<string, unknown>): string {
  const line = ruleLine(table);
  // One key per line, as Gemini's own files and `ruleTableText` write them.
  const body = (parseGeminiToml(`r = { ${line} }\n`).value as { r: Record<string, unknown> }).r;
  return ["[[rule]]", ...Object.keys(body).map((k) => `${key(k)} = ${inline(body[k])}`)].join("\n") + "\n";
}

/** Gemini's rules for a rule text (session entries): parsed as a user-tier file would be; none when it is not one. */
export function rulesOfLine(text: string, source: string): GeminiRule[] {
  const parsed = parseRuleLine(text);
  if (!parsed.ok) return [];
  return parsePolicyFile({ file: source, content: parsed.toml, tier: "user" }).rules;
}

export { ruleTableText };

/** Gemini's decision word for the cockpit's action, and back. */
export const TO_GEMINI = { allow: "allow", ask: "ask_user", deny: "deny" } as const;
export const TO_ACTION = { allow: "allow", ask_user: "ask", deny: "deny" } as const;
