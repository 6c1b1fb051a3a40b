/**
 * A prefix index over rules, so coverage checks stay near-linear with thousands of rules. A rule can only
 * cover another when its literal lead (specifier text up to the first `*`) is a prefix of the other's
 * specifier text — true for every form `isNarrower` proves (shell prefixes, `dir/**` paths, `*.x.com`).
 */
import type { Rule } from "@/lib/policy";
import type { LintItem } from "./types";

export function specText(rule: Rule): string {
  const s = rule.specifier;
  if (!s) return "";
  switch (s.kind) {
    case "param":
      return `${s.name}:${s.value}`;
    case "expression":
      return s.value;
    default:
      return s.pattern;
  }
}

const lead = (rule: Rule) => {
  const t = specText(rule);
  const i = t.indexOf("*");
  return i === -1 ? t : t.slice(0, i);
};

export class RuleIndex {
  private bare: LintItem[] = [];
  private byKey = new Map<string, LintItem[]>();

  constructor(items: Iterable<LintItem>) {
    for (const it of items) {
      const r = it.rule!;
      if (!r.specifier) {
        this.bare.push(it);
        continue;
      }
      const k = lead(r).slice(0, 2);
      const list = this.byKey.get(k);
      if (list) list.push(it);
      else this.byKey.set(k, [it]);
    }
  }

  /** Items that might cover `rule` (a superset; the caller proves it). */
  candidates(rule: Rule): LintItem[] {
    const t = specText(rule);
    const out = [...this.bare];
    if (!rule.specifier) return out;
    for (const k of new Set([t.slice(0, 2), t.slice(0, 1), ""])) {
      const l = this.byKey.get(k);
      if (l) out.push(...l);
    }
    return out;
  }
}
