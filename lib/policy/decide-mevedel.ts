import { callFacts, type CallFacts } from "./call";
import { allowMatch, compiledFor, effectiveMode, insideRoots, roots } from "./context";
import { candidates, firstMatch, type Bucket, type CompiledRule } from "./match";
import { deletesRootOrHome } from "./decide-shared";
import { isInside, resolveCallPath } from "./paths";
import { protectedDecision, protectedHit } from "./protected";
import { mevedelProtection } from "./sensitive";
import { shellResourcePaths } from "./shell-paths";
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

const specific = (cr: CompiledRule) => cr.rule.specifier !== null;

/**
 * Allow/ask resolution (seed 004 "Precedence: specifier rules outrank generic; within a group deny > ask > allow",
 * buckets innermost first): the specifier group of every bucket is consulted before any generic rule, so a
 * persistent `("Bash" :pattern "ls" :action allow)` outranks a session `("Bash" :action ask)`.
 */
function resolveRules(
  b: { session: Rule[]; persistent: Rule[] },
  f: CallFacts,
  ctx: PolicyContext,
): { action: "ask" | "allow"; cr: CompiledRule; bucket: string } | null {
  const named = [
    ["session", b.session],
    ["persistent", b.persistent],
  ] as const;
  for (const group of ["specific", "generic"] as const)
    for (const [bucket, rules] of named) {
      const set = compiledFor(rules, ctx);
      const ask = firstAsk(set.ask, f, ctx, group);
      if (ask) return { action: "ask", cr: ask, bucket };
      const allow = allowMatch(set.allow, f, ctx, group === "specific" ? specific : undefined);
      if (allow) return { action: "allow", cr: allow.rule, bucket };
    }
  return null;
}

function firstAsk(b: Bucket, f: CallFacts, ctx: PolicyContext, group: "specific" | "generic"): CompiledRule | null {
  for (const cr of candidates(b, f, ctx)) if (specific(cr) === (group === "specific") && cr.test(f, ctx)) return cr;
  return null;
}

/**
 * Seed 004 "Bash specifics": substitutions, expansions, assignments, redirections, here-documents, subshells,
 * control flow and parse errors make a command complex; Ask mode never allows it as recognised inspection.
 */
function complexShell(f: CallFacts): string | null {
  const a = f.shell;
  if (!a) return "no command";
  if (!a.allowable) return a.unsupported[0] ?? "unsupported syntax";
  for (const p of a.parts) {
    if (p.origin === "substitution") return "command substitution";
    if (p.assignments.length) return "assignment";
    if (p.writes.length) return "redirection";
    if (p.argv.some((w) => /[$`]/.test(w))) return "expansion";
  }
  if (/[<>]/.test(a.command.replace(/'[^']*'|"[^"]*"/g, ""))) return "redirection or here-document";
  return null;
}

/** A `work://` operand owned by the session: a relative descendant without traversal. */
function sessionWork(r: { scheme: string; rest: string }): boolean {
  return r.scheme === "work" && r.rest !== "" && !r.rest.startsWith("/") && !r.rest.split("/").includes("..");
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

/** mevedel's chain: deny (any bucket) → plan → full-auto → allow/ask (specific first) → resource authority → mode fallback. */
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

  const prot = protectedHit(f, ctx);
  if (prot) return protectedDecision(t, prot, mode);
  t.pass("protected-path", "names no protected folder (cockpit guard)");

  // Resource addresses (seed 004 "Resource-address authority"): traversal stops before permission.
  const bad = f.resources.find((r) => r.rest === "" || r.rest.split("/").includes(".."));
  if (bad)
    return t.decide("deny", "malformed-write", `${bad.scheme}://${bad.rest} is not a valid resource address`, "safety");
  const workOnly =
    f.kind === "edit" && f.paths.length === 0 && f.resources.length > 0 && f.resources.every(sessionWork);

  const mutating = f.kind === "edit" || f.kind === "eval" || (f.kind === "shell" && !f.shell?.readOnly);
  if (mode === "plan" && mutating && !workOnly)
    return t.decide("deny", "plan-mode", "Plan denies native edits, Eval and mutating Bash", "mode");
  if (mode === "plan" && workOnly)
    return t.decide(
      "allow",
      "plan-mode",
      "Plan allows a patch whose every operand is a session-owned work:// path",
      "mode",
    );
  t.pass("plan-mode", mode === "plan" ? "does not mutate" : `mode is ${mode}`);

  if (f.kind === "shell" && deletesRootOrHome(f, ctx)) {
    t.warn("root/home delete");
    return t.decide(
      "ask",
      "root-home-delete",
      "cockpit safety guard (seed 002's root/home delete guard; not a mevedel rule): deletes the file-system root or the home directory",
      "safety",
      { safetyCheck: true },
    );
  }
  t.pass("root-home-delete", "cockpit safety guard: no root or home delete");

  if (mode === "yolo")
    return t.decide(
      "allow",
      "yolo",
      "full-auto (Full Access) ignores ask rules and protections; only denies remain",
      "mode",
    );
  t.pass("yolo", `mode is ${mode}`);

  let allowed: CompiledRule | null = null;
  const r = resolveRules(b, f, ctx);
  if (r?.action === "ask")
    return t.decide("ask", "ask-rule", `ask rule ${r.cr.rule.text} (${r.bucket} bucket)`, "explicit-ask-rule", {
      rule: r.cr.rule,
      safetyCheck: true,
    });
  if (r) {
    allowed = r.cr;
    t.pass("ask-rule", `${r.bucket} bucket allows via ${r.cr.rule.text}`);
  } else t.pass("ask-rule", "no allow/ask rule in any bucket");

  // Resource authority is independent of command authority: both must allow.
  const readOnlyShell = f.kind === "shell" && !!f.shell?.readOnly;
  const access = f.kind === "edit" || (f.kind === "shell" && !readOnlyShell) ? "write" : "read";
  const paths = f.kind === "read" || f.kind === "edit" ? [...f.paths] : f.kind === "shell" ? [f.env.cwd] : [];
  // Seed 004: in Ask, literal resources of a Bash command (`.` and `..` included) need the roots or a grant.
  if (f.kind === "shell" && mode === "default") paths.push(...shellResourcePaths(f).paths);
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
  // Memory and shared operands are decided on their backing paths, which the cockpit does not know.
  const opaque = f.resources.find((x) => !sessionWork(x) && (f.kind !== "read" || x.scheme === "memory"));
  if (opaque)
    return t.decide(
      "ask",
      "external-dir",
      `${opaque.scheme}:// operands resolve to backing paths the cockpit cannot check`,
      "resource-boundary",
      { safetyCheck: true },
    );
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
    const complex = edits ? null : complexShell(f);
    if (a?.readOnly && a.secretArgs.length === 0 && !complex)
      return t.decide("allow", "read-only", "recognised inspection command", "mode");
    if (a?.dangerous) t.warn("dangerous command");
    if (complex) {
      t.warn("unsupported shell syntax");
      return t.decide("ask", "fallback", `Ask mode asks for complex commands (${complex})`, "mode");
    }
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
