import { callFacts, type CallFacts } from "./call";
import { allowMatch, compiledFor, effectiveMode, insideRoots, roots } from "./context";
import { candidates, firstMatch, type Bucket, type CompiledRule } from "./match";
import { isInside, resolveCallPath } from "./paths";
import { mevedelProtection } from "./sensitive";
import { Trail } from "./trail";
import type { Decision, PolicyContext, Rule, ToolCall } from "./types";

const bucketCache = new WeakMap<readonly Rule[], WeakMap<readonly Rule[], { session: Rule[]; persistent: Rule[] }>>();
const NO_RULES: Rule[] = [];

/** mevedel buckets, innermost first: session (ctx.sessionRules + session-scoped rules), then persistent (workspace + global). */
function buckets(ctx: PolicyContext): { session: Rule[]; persistent: Rule[] } {
  const s = ctx.sessionRules ?? NO_RULES;
  let inner = bucketCache.get(ctx.rules);
  if (!inner) bucketCache.set(ctx.rules, (inner = new WeakMap()));
  let b = inner.get(s);
  if (!b || b.session.length + b.persistent.length !== s.length + ctx.rules.length) {
    b = {
      session: [...s, ...ctx.rules.filter((r) => r.source.scope === "session")],
      persistent: ctx.rules.filter((r) => r.source.scope !== "session"),
    };
    inner.set(s, b);
  }
  return b;
}

/** Allow/ask resolution inside one bucket: specifier rules outrank generic ones; within a group ask > allow. */
function resolveBucket(
  rules: Rule[],
  f: CallFacts,
  ctx: PolicyContext,
): { action: "ask" | "allow"; cr: CompiledRule } | null {
  const set = compiledFor(rules, ctx);
  const ask = firstMatchGroup(set.ask, f, ctx);
  const allow = allowMatch(set.allow, f, ctx);
  const allowSpecific = allow && allow.all.every((c) => c.rule.specifier !== null) ? allow.rule : null;
  const allowGeneric = allow && !allowSpecific ? allow.rule : null;
  if (ask.specific) return { action: "ask", cr: ask.specific };
  if (allowSpecific) return { action: "allow", cr: allowSpecific };
  if (ask.generic) return { action: "ask", cr: ask.generic };
  if (allowGeneric) return { action: "allow", cr: allowGeneric };
  return null;
}

function firstMatchGroup(b: Bucket, f: CallFacts, ctx: PolicyContext) {
  let specific: CompiledRule | null = null;
  let generic: CompiledRule | null = null;
  // A generic match must not hide a specifier match further down the list.
  for (const cr of candidates(b, f, ctx)) {
    if (cr.rule.specifier === null) generic ??= cr;
    else if (!specific && cr.test(f, ctx)) specific = cr;
  }
  return { specific, generic };
}

/** Does a resource grant cover the path for this access? Write grants cover reads; exact grants cover only their path. */
function granted(p: string, access: "read" | "write", ctx: PolicyContext): boolean {
  const env = { workspaceRoot: ctx.workspaceRoot, cwd: ctx.workspaceRoot, home: ctx.home };
  return (ctx.grants ?? []).some((g) => {
    if (access === "write" && g.access !== "write") return false;
    const gp = resolveCallPath(g.path, env);
    return g.recursive ? isInside(p, gp) : p === gp;
  });
}

/** mevedel's chain: deny (any bucket) → plan → full-auto → allow/ask innermost bucket → resource authority → mode fallback. */
export function decideMevedel(call: ToolCall, ctx: PolicyContext): Decision {
  const t = new Trail();
  const { mode, note } = effectiveMode(ctx);
  if (note) t.warn(note);
  const f = callFacts(call, ctx);
  const b = buckets(ctx);

  for (const rules of [b.session, b.persistent]) {
    const d = firstMatch(compiledFor(rules, ctx).deny, f, ctx);
    if (d)
      return t.decide("deny", "deny-rule", `denied by ${d.rule.text} (deny is absolute in every bucket)`, "rule", {
        rule: d.rule,
      });
  }
  t.pass("deny-rule", "no deny rule in any bucket");

  const mutating = f.kind === "edit" || f.kind === "eval" || (f.kind === "shell" && !f.shell?.readOnly);
  if (mode === "plan" && mutating)
    return t.decide("deny", "plan-mode", "Plan denies native edits, Eval and mutating Bash", "mode");
  t.pass("plan-mode", mode === "plan" ? "does not mutate" : `mode is ${mode}`);

  if (mode === "yolo")
    return t.decide(
      "allow",
      "yolo",
      "full-auto (Full Access) ignores ask rules and protections; only denies remain",
      "mode",
    );
  t.pass("yolo", `mode is ${mode}`);

  let allowed: CompiledRule | null = null;
  for (const [name, rules] of [
    ["session", b.session],
    ["persistent", b.persistent],
  ] as const) {
    const r = resolveBucket(rules, f, ctx);
    if (!r) continue;
    if (r.action === "ask")
      return t.decide("ask", "ask-rule", `ask rule ${r.cr.rule.text} (${name} bucket)`, "explicit-ask-rule", {
        rule: r.cr.rule,
        safetyCheck: true,
      });
    allowed = r.cr;
    t.pass("ask-rule", `${name} bucket allows via ${r.cr.rule.text}`);
    break;
  }
  if (!allowed) t.pass("ask-rule", "no allow/ask rule in any bucket");

  // Resource authority is independent of command authority: both must allow.
  const access = f.kind === "edit" ? "write" : "read";
  const paths = f.kind === "read" || f.kind === "edit" ? f.paths : f.kind === "shell" ? [f.env.cwd] : [];
  for (const p of paths) {
    const prot = mevedelProtection(p);
    if (prot && (prot === "inaccessible" || access === "write") && !granted(p, access, ctx)) {
      t.warn("protected path");
      return t.decide(
        "ask",
        "sensitive-write",
        `${p} is protected (${prot}) and no resource grant covers it`,
        "protected-resource",
        { safetyCheck: true },
      );
    }
  }
  t.pass("sensitive-write", "no protected path without a grant");
  const directPath = allowed?.rule.specifier?.kind === "path";
  const ws = roots(ctx, access === "read", false);
  for (const p of paths) {
    if (insideRoots(p, ws, ctx) || directPath || granted(p, access, ctx)) continue;
    if (mode === "accept-edits" && access === "read") continue; // Edits reads span OS-readable paths
    return t.decide(
      "ask",
      "external-dir",
      `${p} is outside the allowed roots and no ${access} grant covers it`,
      "resource-boundary",
      { safetyCheck: true },
    );
  }
  t.pass("external-dir", "inside allowed roots or granted");

  if (allowed)
    return t.decide("allow", "allow-rule", `allowed by ${allowed.rule.text}`, "rule", { rule: allowed.rule });
  t.pass("allow-rule", "no allow rule");
  return fallback(t, f, mode);
}

function fallback(t: Trail, f: CallFacts, mode: string): Decision {
  const edits = mode === "accept-edits";
  if (f.kind === "read")
    return t.decide("allow", "read-only", "native reads inside the allowed roots need no prompt", "mode");
  if (f.exact === "agent" || f.exact === "task")
    return t.decide(
      "allow",
      "always-allowed",
      "delegation is allowed; the child's tools are checked",
      "always-allowed",
    );
  if (f.kind === "shell") {
    const a = f.shell;
    if (a?.readOnly && a.secretArgs.length === 0)
      return t.decide("allow", "read-only", "recognised inspection command", "mode");
    if (a?.rootHomeDelete) {
      t.warn("root/home delete");
      return t.decide("ask", "root-home-delete", "deletes the file-system root or the home directory", "safety", {
        safetyCheck: true,
      });
    }
    if (a?.dangerous) t.warn("dangerous command");
    if (edits) return t.decide("allow", "accept-edits", "Edits runs arbitrary Bash under required confinement", "mode");
    return t.decide("ask", "fallback", "Ask mode asks for uncertain execution", "mode");
  }
  if (f.kind === "edit") {
    if (edits) return t.decide("allow", "accept-edits", "Edits applies native edits within the roots", "mode");
    return t.decide("allow", "fallback", "ApplyPatch carries its own per-hunk review in Ask mode", "mode");
  }
  if (f.kind === "eval" && edits && f.call.input?.mode === "batch")
    return t.decide("allow", "accept-edits", "Edits runs batch Eval under confinement", "mode");
  return t.decide("ask", "fallback", "needs approval", "mode");
}
