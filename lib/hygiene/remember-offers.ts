/**
 * The remember chooser's lint: every choice `rememberChoices` builds from a request gets the verdict the Rules
 * page's lint would give its rules once saved. A choice with an error (over-broad: arbitrary code, a shell
 * reading stdin, writes to home) is never offered; warnings and notes (a one-off command) are shown beside it.
 */
import type { Agent, ParseResult, RememberChoice, Rule, RuleSource } from "@/lib/policy";
import type { StoreFormat } from "@/lib/stores/types";
import { findOneOff, findOverBroad } from "./danger";
import type { LintItem, Severity } from "./types";

export interface RememberVerdict {
  /** The worst finding over the choice's rules; "ok" when the lint found nothing. */
  severity: "ok" | Exclude<Severity, "error">;
  notes: string[];
}

export interface RememberOffer extends RememberChoice {
  verdict: RememberVerdict;
}

export interface RememberLintEnv {
  agent: Agent;
  /** The store the rules would go to (scope, file, base), as the engine reads them back. */
  source: RuleSource;
  /** That store's format (as the Rules page lists it). */
  format: StoreFormat;
  /** Reads a rule text as the agent's engine does (its dialect, its store's syntax). */
  parse: (text: string) => ParseResult<Rule>;
  workspace: string;
  home: string;
}

/** The lint's verdict on rules about to be saved: the findings of over-broad and one-off, as for a listed entry. */
export function lintProposedRules(
  rules: readonly string[],
  env: RememberLintEnv,
): { severity: "ok" | Severity; notes: string[] } {
  const items: LintItem[] = [];
  for (const [i, text] of rules.entries()) {
    const parsed = env.parse(text);
    const rule = parsed.ok ? parsed.value : null;
    if (!rule) return { severity: "error", notes: [`${text} is not a rule the agent can read`] };
    items.push({
      rule,
      entry: {
        id: `proposed-${i}`,
        scope: env.source.scope,
        kind: "rule",
        agent: env.agent,
        action: "allow",
        rule: text,
        tool: rule.tool,
        specifier: null,
        store: {
          path: env.source.store,
          format: env.format,
          version: "new",
          valid: true,
        },
        line: 0,
        writable: true,
      },
    });
  }
  const input = { workspace: env.workspace, home: env.home, items };
  const findings = [...findOverBroad(input, items), ...findOneOff(items)];
  const rank = { info: 1, warning: 2, error: 3 } as const;
  const worst = findings.reduce<"ok" | Severity>(
    (w, f) => (w === "ok" || rank[f.severity] > rank[w] ? f.severity : w),
    "ok",
  );
  return { severity: worst, notes: findings.map((f) => f.message) };
}

/** The choices a card offers: each with its lint verdict; choices the lint calls an error are left out. */
export function rememberOffers(choices: readonly RememberChoice[], env: RememberLintEnv): RememberOffer[] {
  const out: RememberOffer[] = [];
  for (const c of choices) {
    const v = lintProposedRules(c.rules, env);
    if (v.severity === "error") continue;
    out.push({ ...c, verdict: { severity: v.severity, notes: v.notes } });
  }
  return out;
}
