/**
 * "When remembering": before "always allow" appends a rule, find an existing allow that already covers it,
 * so the card can warn and offer that rule instead of growing the list.
 */
import { isNarrower, type Agent, type RuleSource } from "@/lib/policy";
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

export function coveringAllow(
  text: string,
  agent: Agent,
  source: RuleSource,
  items: LintItem[],
  env: { workspace: string; home: string },
): CoveringAllow | null {
  const parsed =
    agent === "mevedel" && text.trim().startsWith("(")
      ? parseMevedelRuleText(text, source)
      : parseRule(text, "allow", { agent, source });
  if (!parsed.ok) return null;
  const next = parsed.value;
  for (const it of items) {
    const r = it.rule;
    if (!r || it.entry.agent !== agent || r.action !== "allow" || !enforced(r) || !sameAnchor(r, next)) continue;
    const same =
      r.tool.toLowerCase() === next.tool.toLowerCase() &&
      JSON.stringify(r.specifier) === JSON.stringify(next.specifier);
    if (
      same ||
      isNarrower({ kind: "rule", action: "allow", rule: r }, { kind: "rule", action: "allow", rule: next }).proved
    )
      return {
        entry: it.entry.id,
        rule: it.entry.rule,
        message: `${text} is already covered by ${quote(it)} (${where(it, env.workspace, env.home)}); keep that rule instead of adding a narrower copy`,
      };
  }
  return null;
}
