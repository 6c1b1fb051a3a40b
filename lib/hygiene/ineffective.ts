/**
 * ineffective: entries the agent accepts (the file loads) but never consults, each with the reason from the
 * agent's documented semantics (docs/policy.md).
 */
import { agentLabel, ruleTraitsOf } from "@/lib/agents";
import { dialectOf } from "@/lib/agents/dialects";
import { canonicalTool } from "@/lib/policy";
import { ignoredByAgent } from "@/lib/policy/match";
import { quote } from "./describe";
import type { Finding, LintItem } from "./types";

function malformedReason(it: LintItem): string {
  const why = it.entry.malformed ?? "";
  if (/works in deny\/ask only/.test(why))
    return `allow parameter rules are never consulted — ${why}. Use a deny/ask parameter rule, or an allow rule on the command or path`;
  if (/is ignored in allow/.test(why)) return `MCP tool globs are ignored in allow — ${why}`;
  return `the agent cannot parse it, so it never matches: ${why}`;
}

export function findIneffective(items: LintItem[]): Finding[] {
  const out: Finding[] = [];
  const push = (it: LintItem, message: string) =>
    out.push({ kind: "ineffective", severity: "warning", entry: it.entry.id, message: `${quote(it)}: ${message}` });
  for (const it of items) {
    if (it.grant) continue;
    if (it.entry.malformed) {
      push(it, malformedReason(it));
      continue;
    }
    const r = it.rule;
    if (!r) continue;
    const traits = ruleTraitsOf(r.agent);
    const tool = canonicalTool(r.tool);
    if (ignoredByAgent(r, dialectOf(r.agent)))
      push(
        it,
        `${agentLabel(r.agent)} accepts ${r.tool}(path) but never consults it; path rules for writes are spelled Edit(path)`,
      );
    else if (
      traits.alwaysAllowedTools?.includes(tool) &&
      (r.action === "allow" || !traits.denyAskConsulted?.includes(tool))
    )
      push(
        it,
        r.action === "allow"
          ? `${r.tool} is always allowed before any rule is read, so this allow is never consulted`
          : `${r.tool} is always allowed before any rule is read${traits.alwaysAllowedCited ? ` (${agentLabel(r.agent)})` : ""}, so this ${r.action} never applies`,
      );
    else if (traits.colonStarSuffix && r.specifier?.kind === "shell" && /:\*(?!$)/.test(r.specifier.pattern))
      push(it, `":*" is a wildcard only at the end of a pattern; here it means a literal ":" that no command contains`);
  }
  return out;
}
