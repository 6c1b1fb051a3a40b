/**
 * The one place the store layer touches the policy engine, so its API can move without rippling. Stores know their
 * agent's id; the engine parses in that agent's dialect (lib/agents/dialects.ts).
 */
import { dialectOf, plistDialect } from "@/lib/agents/dialects";
import { formatMevedelRule, isNarrower, parseMevedelRule, parseMevedelRuleText, parseRule } from "@/lib/policy";
import type {
  Action,
  Agent,
  EntrySpec,
  Grant,
  MevedelRuleData,
  NarrowProof,
  ParseResult,
  Rule,
  RuleSource,
  Scope,
  Specifier,
} from "@/lib/policy";

export type {
  Action,
  Agent,
  EntrySpec,
  Grant,
  MevedelRuleData,
  NarrowProof,
  ParseResult,
  Rule,
  RuleSource,
  Scope,
  Specifier,
};

export function parseTextRule(text: string, action: Action, agent: Agent, source: RuleSource): ParseResult<Rule> {
  try {
    return parseRule(text, action, { dialect: dialectOf(agent), source });
  } catch (error) {
    return { ok: false, error: `rule parser failed: ${(error as Error).message}` };
  }
}

/** Session rows hold either rule text or, where the dialect writes them (mevedel), a plist rule form. */
export function parseAnyRule(text: string, action: Action, agent: Agent, source: RuleSource): ParseResult<Rule> {
  const dialect = dialectOf(agent);
  if (dialect.rules.form !== "plist" || !text.trim().startsWith("(")) return parseTextRule(text, action, agent, source);
  try {
    return parseMevedelRuleText(text, source, dialect);
  } catch (error) {
    return { ok: false, error: `rule parser failed: ${(error as Error).message}` };
  }
}

/** A rule form of a plist store, in its agent's dialect (default: the one dialect written in rule forms). */
export function parsePlistRule(data: MevedelRuleData, source: RuleSource, agent?: Agent): ParseResult<Rule> {
  try {
    return parseMevedelRule(data, source, agent ? dialectOf(agent) : plistDialect());
  } catch (error) {
    return { ok: false, error: `rule parser failed: ${(error as Error).message}` };
  }
}

export function proveNarrower(oldSpec: EntrySpec, newSpec: EntrySpec): NarrowProof {
  try {
    return isNarrower(oldSpec, newSpec);
  } catch (error) {
    return { proved: false, reason: `narrowing proof failed: ${(error as Error).message}` };
  }
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Profile entries (a Bash allow rule carrying :network/:file-system) change along two axes: the
 * rule's matcher/action and the profile. Each must be narrower or unchanged, and one must change.
 */
export function proveEntryNarrower(oldSpec: EntrySpec, newSpec: EntrySpec): NarrowProof {
  if (oldSpec.kind !== "profile" || newSpec.kind !== "profile" || !oldSpec.rule || !newSpec.rule)
    return proveNarrower(oldSpec, newSpec);
  const strip = (spec: EntrySpec): EntrySpec => ({
    kind: "rule",
    action: spec.action,
    rule: { ...spec.rule!, profile: undefined },
  });
  const o = oldSpec.rule;
  const n = newSpec.rule;
  const sameRule =
    o.action === n.action && o.tool.toLowerCase() === n.tool.toLowerCase() && sameJson(o.specifier, n.specifier);
  const oldProfile = oldSpec.profile ?? { network: false, fileSystem: [] };
  const newProfile = newSpec.profile ?? { network: false, fileSystem: [] };
  const sameProfile = sameJson(oldProfile, newProfile);
  if (sameRule && sameProfile)
    return { proved: false, reason: "cannot prove narrower: the new entry is identical; revoke and add instead" };
  if (!sameRule) {
    const rule = proveNarrower(strip(oldSpec), strip(newSpec));
    if (!rule.proved) return rule;
  }
  if (!sameProfile) {
    const profile = proveNarrower({ kind: "profile", profile: oldProfile }, { kind: "profile", profile: newProfile });
    if (!profile.proved) return profile;
  }
  return { proved: true };
}

/** The specifier as one display string (`git status:*`, `domain:example.com`, `model:opus`). */
export function specifierText(spec: Specifier | null): string | null {
  if (!spec) return null;
  switch (spec.kind) {
    case "param":
      return `${spec.name}:${spec.value}`;
    case "domain":
      return `domain:${spec.pattern}`;
    case "expression":
      return spec.value;
    default:
      return spec.pattern;
  }
}

/** Plist form of a parsed rule, as its agent (mevedel) writes it. */
export function formatPlistRule(rule: Rule): string {
  return formatMevedelRule(rule, dialectOf(rule.agent));
}
