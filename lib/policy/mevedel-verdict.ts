import type { CallFacts } from "./call";
import { compiledFor } from "./context";
import { candidates, type CompiledRule } from "./match";
import { matchShellPattern } from "./shell/pattern";
import type { Action, PolicyContext, Rule } from "./types";

/** One mevedel rule bucket, innermost first: session, then persistent (workspace + global store). */
export interface MevedelBucket {
  name: "session" | "persistent";
  rules: Rule[];
}

export interface Verdict {
  action: Action;
  rule: Rule;
  bucket: MevedelBucket["name"];
}

const ORDER: Action[] = ["deny", "ask", "allow"];

/**
 * `mevedel-permission-rules-action` over matching rules: specifier rules outrank generic ones, and within each group
 * deny > ask > allow. Returns the deciding rule, or null when no rule of the bucket matches.
 */
function pick(matches: Rule[], bucket: MevedelBucket["name"]): Verdict | null {
  for (const specific of [true, false])
    for (const action of ORDER) {
      const rule = matches.find((r) => r.action === action && (r.specifier !== null) === specific);
      if (rule) return { action, rule, bucket };
    }
  return null;
}

/** Does the rule name this tool (`*` names every tool)? */
function namesTool(rule: Rule, names: string[]): boolean {
  return rule.tool === "*" || names.includes(rule.tool.toLowerCase());
}

/**
 * The bucket's verdict for a generic tool call (native paths, domains, names, Eval expressions). Deny/ask rules
 * match aggressively, allow rules conservatively (the engine's usual reading). Rules qualified by
 * `:sandbox-permissions` never take part (`mevedel-permission-rules-find` skips them).
 */
export function bucketVerdict(bucket: MevedelBucket, f: CallFacts, ctx: PolicyContext): Verdict | null {
  if (bucket.rules.length === 0) return null;
  const set = compiledFor(bucket.rules, ctx);
  const matches: Rule[] = [];
  for (const b of [set.deny, set.ask, set.allow])
    for (const cr of candidates(b, f, ctx) as CompiledRule[])
      if (cr.rule.sandboxPermissions === undefined && !matches.includes(cr.rule) && cr.test(f, ctx))
        matches.push(cr.rule);
  return pick(matches, bucket.name);
}

/**
 * The bucket's verdict for one Bash string (`mevedel-permission-rules-action` with `:pattern`). `patternOnly` keeps
 * only rules with a specifier (harvested nested commands: a generic fallback cannot defeat a containing allow).
 * `level` selects the rules qualified by that `:sandbox-permissions` level instead of the ordinary ones.
 */
export function bashVerdict(
  bucket: MevedelBucket,
  tool: "Shell" | "Eval",
  candidate: string,
  opts: { patternOnly?: boolean; level?: string } = {},
): Verdict | null {
  const names = tool === "Shell" ? ["shell", "bash"] : ["eval"];
  const matches: Rule[] = [];
  for (const r of bucket.rules) {
    if (!namesTool(r, names)) continue;
    if ((r.sandboxPermissions ?? null) !== (opts.level ?? null)) continue;
    const s = r.specifier;
    if (!s) {
      if (!opts.patternOnly) matches.push(r);
      continue;
    }
    const fold = r.action !== "allow";
    if (s.kind === "shell" && matchShellPattern(s.pattern, s.dialect, candidate, fold)) matches.push(r);
    else if (s.kind === "expression" && s.value === candidate) matches.push(r);
  }
  return pick(matches, bucket.name);
}

/** First bucket with any verdict (allow/ask resolution is innermost-first). */
export function firstVerdict(buckets: MevedelBucket[], of: (b: MevedelBucket) => Verdict | null): Verdict | null {
  for (const b of buckets) {
    const v = of(b);
    if (v) return v;
  }
  return null;
}

/** A deny verdict of any bucket (deny is absolute across buckets; each bucket's own precedence applies first). */
export function anyDeny(buckets: MevedelBucket[], of: (b: MevedelBucket) => Verdict | null): Verdict | null {
  for (const b of buckets) {
    const v = of(b);
    if (v?.action === "deny") return v;
  }
  return null;
}
