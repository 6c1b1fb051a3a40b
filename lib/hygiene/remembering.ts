/**
 * "When remembering": before "always allow" appends a rule, find an existing allow that already covers it,
 * so the card can warn and offer that rule instead of growing the list.
 */
import { dialectOf } from "@/lib/agents/dialects";
import { isNarrower, type Agent, type Rule, type RuleSource } from "@/lib/policy";
import { parseMevedelRuleText, parseRule } from "@/lib/policy";
import { quote, where } from "./describe";
import { sameAnchor } from "./reach";
import type { LintItem } from "./types";
import { enforced } from "./usable";

export interface CoveringAllow {
  entry: string;
  rule: string;
  message: string;
}

function parseNew(text: string, agent: Agent, source: RuleSource): Rule | null {
  const dialect = dialectOf(agent);
  const parsed =
    dialect.rules.form === "plist" && text.trim().startsWith("(")
      ? parseMevedelRuleText(text, source, dialect)
      : parseRule(text, "allow", { dialect, source });
  return parsed.ok ? parsed.value : null;
}

function covers(r: Rule | null, next: Rule, agent: Agent): boolean {
  if (!r || r.agent !== agent || r.action !== "allow" || !enforced(r) || !sameAnchor(r, next)) return false;
  const same =
    r.tool.toLowerCase() === next.tool.toLowerCase() && JSON.stringify(r.specifier) === JSON.stringify(next.specifier);
  return (
    same || isNarrower({ kind: "rule", action: "allow", rule: r }, { kind: "rule", action: "allow", rule: next }).proved
  );
}

/** The first loaded allow rule (as the engine holds them, no entry ids) that covers `text`, or null. */
export function coveringRule(text: string, agent: Agent, source: RuleSource, rules: Rule[]): Rule | null {
  const next = parseNew(text, agent, source);
  return (next && rules.find((r) => covers(r, next, agent))) || null;
}

export function coveringAllow(
  text: string,
  agent: Agent,
  source: RuleSource,
  items: LintItem[],
  env: { workspace: string; home: string },
): CoveringAllow | null {
  const next = parseNew(text, agent, source);
  if (!next) return null;
  for (const it of items) {
    if (it.entry.agent !== agent || !covers(it.rule, next, agent)) continue;
    return {
      entry: it.entry.id,
      rule: it.entry.rule,
      message: `${text} is already covered by ${quote(it)} (${where(it, env.workspace, env.home)}); keep that rule instead of adding a narrower copy`,
    };
  }
  return null;
}
