import { callFacts } from "./call";
import { allowMatch, allRules, compiledFor } from "./context";
import { decide } from "./decide";
import type { Decision, PolicyContext, ToolCall } from "./types";

/**
 * The call's allow when an explicit allow rule (a store rule or a session entry) grants it, else null.
 * Mode heuristics (read-only, accept-edits, plan, yolo, always-allowed, subagent) do not count: the call is
 * re-decided in default mode, and a read-only allow stands only if an allow rule matches too (for a
 * read-only call no guard lies between the read-only and allow-rule steps of the ladder).
 */
export function explicitAllow(call: ToolCall, ctx: PolicyContext): Decision | null {
  const plain = decide(call, { ...ctx, mode: "default", subagent: false });
  if (plain.decision !== "allow" || plain.safetyCheck) return null;
  if (plain.step === "allow-rule") return plain;
  if (plain.step !== "read-only" || ctx.dialect.ladder === "buckets") return null;
  const m = allowMatch(compiledFor(allRules(ctx), ctx).allow, callFacts(call, ctx), ctx);
  if (!m) return null;
  const rule = m.rule.rule;
  const reason = `allowed by ${m.all.map((c) => c.rule.text).join(", ")}`;
  return {
    ...plain,
    step: "allow-rule",
    cause: "rule",
    rule: rule.text,
    scope: rule.source.scope,
    store: rule.source.store,
    reason,
    trace: [...plain.trace, { step: "allow-rule", outcome: "decided", why: reason }],
  };
}
