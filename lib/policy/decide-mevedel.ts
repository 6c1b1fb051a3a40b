import { callFacts, type CallFacts } from "./call";
import { effectiveMode, insideRoots, roots } from "./context";
import { deletesRootOrHome } from "./decide-shared";
import { bashAuthority, bashDeny, bashProtected, classify, grantCovers, missingResources } from "./mevedel-bash";
import { anyDeny, bashVerdict, bucketVerdict, firstVerdict, type MevedelBucket, type Verdict } from "./mevedel-verdict";
import { protectedDecision, protectedHit } from "./protected";
import { mevedelProtection } from "./sensitive";
import { Trail } from "./trail";
import type { Decision, Grant, Mode, PolicyContext, Rule, ToolCall } from "./types";

const bucketCache = new WeakMap<readonly Rule[], WeakMap<readonly Rule[], MevedelBucket[]>>();
const NO_RULES: Rule[] = [];

/** mevedel buckets, innermost first: session (ctx.sessionRules + session-scoped rules), then persistent (workspace + global). */
function buckets(ctx: PolicyContext): MevedelBucket[] {
  const s = ctx.sessionRules ?? NO_RULES;
  let inner = bucketCache.get(ctx.rules);
  if (!inner) bucketCache.set(ctx.rules, (inner = new WeakMap()));
  let b = inner.get(s);
  if (!b || b[0].rules.length + b[1].rules.length !== s.length + ctx.rules.length) {
    b = [
      { name: "session", rules: [...s, ...ctx.rules.filter((r) => r.source.scope === "session")] },
      { name: "persistent", rules: ctx.rules.filter((r) => r.source.scope !== "session") },
    ];
    inner.set(s, b);
  }
  return b;
}

/** A `work://` operand owned by the session: a relative descendant without traversal. */
function sessionWork(r: { scheme: string; rest: string }): boolean {
  return r.scheme === "work" && r.rest !== "" && !r.rest.startsWith("/") && !r.rest.split("/").includes("..");
}

/**
 * `mevedel-tool-exec-permission-eval-mode` and the Eval adapter: an unknown mode is an error the permission check
 * turns into a denial with its message; a call without an expression is denied by Eval policy.
 */
function evalInputError(input: Record<string, unknown>): string | null {
  const m = input.mode;
  if (!(m === undefined || m === null || m === false || m === "" || m === "live" || m === "batch"))
    return `Unknown Eval mode: ${typeof m === "string" ? m : m === true ? "t" : JSON.stringify(m)}`;
  if (typeof input.expression !== "string")
    return "Parameter expression is required (Eval policy denies a call without one)";
  return null;
}

/** What the call asks of its child sandbox (`sandbox_permissions`, `additional_permissions`). Empty fields count as omitted. */
function sandboxRequest(input: Record<string, unknown>): { escalated: boolean; network: boolean; paths: Grant[] } {
  const escalated = input.sandbox_permissions === "require_escalated";
  const extra = input.additional_permissions;
  const paths: Grant[] = [];
  let network = false;
  if (extra && typeof extra === "object") {
    const e = extra as Record<string, unknown>;
    network = e.network === true;
    const fsys = e.file_system;
    if (fsys && typeof fsys === "object")
      for (const access of ["read", "write"] as const) {
        const list = (fsys as Record<string, unknown>)[access];
        if (Array.isArray(list))
          for (const p of list) if (typeof p === "string" && p) paths.push({ path: p, access, recursive: false });
      }
  }
  return { escalated, network, paths };
}

const direct = (bs: MevedelBucket[]) => bs; // session and persistent buckets are both direct user authority

/** mevedel's chain: deny (a bucket's own verdict, in any bucket) → plan → full-auto → tool authority → resources → mode. */
export function decideMevedel(call: ToolCall, ctx: PolicyContext): Decision {
  const t = new Trail();
  const { mode, note } = effectiveMode(ctx);
  if (note) t.warn(note);
  const f = callFacts(call, ctx);
  const bs = buckets(ctx);
  const input = f.call.input && typeof f.call.input === "object" ? f.call.input : {};
  const request = f.kind === "shell" || f.kind === "eval" ? sandboxRequest(input) : null;

  if (f.kind === "eval") {
    const bad = evalInputError(input);
    if (bad) return t.decide("deny", "malformed-write", bad, "safety");
  }

  const tool = f.kind === "shell" ? "Shell" : "Eval";
  const deny = f.kind === "shell" ? bashDeny(bs, f, "Shell") : anyDeny(bs, (b) => bucketVerdict(b, f, ctx));
  const levelDeny =
    request?.escalated && f.command
      ? anyDeny(bs, (b) => bashVerdict(b, tool, f.command!.trim(), { level: "require-escalated" }))
      : null;
  const denied = deny ?? levelDeny;
  if (denied)
    return t.decide(
      "deny",
      "deny-rule",
      `denied by ${denied.rule.text} (${denied.bucket} bucket; deny is absolute in every bucket)`,
      "rule",
      { rule: denied.rule },
    );
  t.pass("deny-rule", "no bucket denies the call");

  const prot = protectedHit(f, ctx);
  if (prot) return protectedDecision(t, prot, mode);
  t.pass("protected-path", "names no protected folder (cockpit guard)");

  // Resource addresses (seed 004 "Resource-address authority"): traversal stops before permission.
  const bad = f.resources.find((r) => r.rest === "" || r.rest.split("/").includes(".."));
  if (bad)
    return t.decide("deny", "malformed-write", `${bad.scheme}://${bad.rest} is not a valid resource address`, "safety");
  const workOnly =
    f.kind === "edit" && f.paths.length === 0 && f.resources.length > 0 && f.resources.every(sessionWork);

  const mutating = f.kind === "edit" || f.kind === "eval" || (f.kind === "shell" && classify(f).klass !== "read-only");
  if (mode === "plan" && mutating && !workOnly)
    return t.decide("deny", "plan-mode", "Plan denies native edits, Eval and Bash that is not read-only", "mode");
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
      `cockpit safety guard (seed 002's root/home delete guard; not a ${ctx.dialect.id} rule): deletes the file-system root or the home directory`,
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

  if (f.kind === "shell") return decideBash(t, f, ctx, mode, bs, request!);
  if (f.kind === "eval") return decideEval(t, f, ctx, mode, bs, request!);
  return decideNative(t, f, ctx, mode, bs);
}

/** Full escalation and additive capabilities need their own authority (seed 004 «Child confinement»). */
function capabilityAsk(
  t: Trail,
  bs: MevedelBucket[],
  tool: "Shell" | "Eval",
  command: string,
  request: ReturnType<typeof sandboxRequest>,
  rule: Verdict | undefined,
  ctx: PolicyContext,
): Decision | null {
  if (request.escalated) {
    const v = firstVerdict(direct(bs), (b) => bashVerdict(b, tool, command, { level: "require-escalated" }));
    if (v?.action !== "allow") {
      t.warn("execution without confinement");
      return t.decide(
        "ask",
        "fallback",
        v?.action === "ask"
          ? `ask rule ${v.rule.text} for require_escalated`
          : "require_escalated disables filesystem, network and process confinement; no :sandbox-permissions require-escalated rule allows it",
        v ? "explicit-ask-rule" : "safety",
        { safetyCheck: true, rule: v?.rule },
      );
    }
    t.pass("fallback", `escalation allowed by ${v.rule.text}`);
  }
  const profile = rule?.rule.profile;
  if (request.network && !profile?.network)
    return t.decide(
      "ask",
      "fallback",
      "requests additional network access that no matching profile grants",
      "resource-boundary",
      {
        safetyCheck: true,
      },
    );
  const missing = request.paths.filter(
    (g) => !grantCovers(g.path, g.access, [...(ctx.grants ?? []), ...(profile?.fileSystem ?? [])], ctx),
  );
  if (missing.length)
    return t.decide(
      "ask",
      "external-dir",
      `requests ${missing[0].access} access to ${missing[0].path} that no grant or profile covers`,
      "resource-boundary",
      { safetyCheck: true },
    );
  return null;
}

function decideBash(
  t: Trail,
  f: CallFacts,
  ctx: PolicyContext,
  mode: Mode,
  bs: MevedelBucket[],
  request: ReturnType<typeof sandboxRequest>,
): Decision {
  const edits = mode === "accept-edits";
  const { klass } = classify(f);
  if (klass === "dangerous") t.warn("dangerous command");
  if (!edits) {
    const p = bashProtected(f, ctx);
    if (p) {
      t.warn("protected path");
      return t.decide("ask", "sensitive-write", `${p} is a protected resource`, "protected-resource", {
        safetyCheck: true,
      });
    }
  }
  t.pass("sensitive-write", edits ? "Edits: the sandbox enforces protected paths" : "names no protected resource");
  const auth = bashAuthority(bs, f, edits);
  if (auth.action === "ask") {
    if (auth.via === "rule")
      return t.decide("ask", "ask-rule", auth.why, "explicit-ask-rule", { rule: auth.rule!.rule, safetyCheck: true });
    if (klass === "complex") t.warn("unsupported shell syntax");
    return t.decide("ask", "fallback", auth.why, "mode");
  }
  t.pass("ask-rule", auth.why);
  const cap = capabilityAsk(t, bs, "Shell", (f.command ?? "").trim(), request, auth.rule, ctx);
  if (cap) return cap;
  if (!edits) {
    const missing = missingResources(f, ctx, auth.rule?.rule.profile?.fileSystem ?? []);
    if (missing.length)
      return t.decide(
        "ask",
        "external-dir",
        `${missing[0]} is outside the allowed roots and no grant covers it`,
        "resource-boundary",
        { safetyCheck: true },
      );
  }
  t.pass("external-dir", "resources inside the allowed roots or granted");
  if (auth.via === "rule") return t.decide("allow", "allow-rule", auth.why, "rule", { rule: auth.rule!.rule });
  if (auth.via === "read-only") return t.decide("allow", "read-only", auth.why, "mode");
  return t.decide("allow", "accept-edits", auth.why, "mode");
}

function decideEval(
  t: Trail,
  f: CallFacts,
  ctx: PolicyContext,
  mode: Mode,
  bs: MevedelBucket[],
  request: ReturnType<typeof sandboxRequest>,
): Decision {
  const batch = f.call.input?.mode === "batch";
  const v = firstVerdict(bs, (b) => bucketVerdict(b, f, ctx));
  if (v?.action === "ask")
    return t.decide("ask", "ask-rule", `ask rule ${v.rule.text} (${v.bucket} bucket)`, "explicit-ask-rule", {
      rule: v.rule,
      safetyCheck: true,
    });
  t.pass("ask-rule", v ? `${v.bucket} bucket allows via ${v.rule.text}` : "no allow/ask rule in any bucket");
  if (batch) {
    const cap = capabilityAsk(t, bs, "Eval", f.command ?? "", request, v ?? undefined, ctx);
    if (cap) return cap;
  } else if (request.escalated || request.network || request.paths.length)
    return t.decide("ask", "fallback", "live Eval runs inside Emacs; child capabilities do not apply", "safety", {
      safetyCheck: true,
    });
  if (v?.action === "allow")
    return t.decide("allow", "allow-rule", `allowed by ${v.rule.text}`, "rule", { rule: v.rule });
  if (mode === "accept-edits" && batch)
    return t.decide("allow", "accept-edits", "Edits runs batch Eval under confinement", "mode");
  if (!batch) t.warn("live Eval runs inside Emacs without confinement");
  return t.decide("ask", "fallback", batch ? "Eval needs approval" : "live Eval always needs approval", "mode");
}

/** Does a resource grant cover the path for this access? */
function granted(p: string, access: "read" | "write", ctx: PolicyContext): boolean {
  return grantCovers(p, access, ctx.grants ?? [], ctx);
}

/** Native tools: the first bucket's verdict, then resource authority (protected paths and roots), then the mode. */
function decideNative(t: Trail, f: CallFacts, ctx: PolicyContext, mode: Mode, bs: MevedelBucket[]): Decision {
  let allowed: Verdict | null = null;
  const r = firstVerdict(bs, (b) => bucketVerdict(b, f, ctx));
  if (r?.action === "ask")
    return t.decide("ask", "ask-rule", `ask rule ${r.rule.text} (${r.bucket} bucket)`, "explicit-ask-rule", {
      rule: r.rule,
      safetyCheck: true,
    });
  if (r) {
    allowed = r;
    t.pass("ask-rule", `${r.bucket} bucket allows via ${r.rule.text}`);
  } else t.pass("ask-rule", "no allow/ask rule in any bucket");

  // Resource authority is independent of tool authority: both must allow. Symlinks are judged by their targets too.
  const access = f.kind === "edit" ? "write" : "read";
  const paths = f.kind === "read" || f.kind === "edit" ? [...f.paths] : [];
  const edits = mode === "accept-edits";
  for (const p of paths) {
    const link = ctx.resolveSymlink?.(p) ?? null;
    for (const q of link ? [p, link] : [p]) {
      const prot = mevedelProtection(q, ctx.dialect);
      // Read-only protection (.git) still needs a covering grant to be read outside Edits (seed 004 steps 6–7).
      if (prot && (prot === "inaccessible" || access === "write" || !edits) && !granted(q, access, ctx)) {
        t.warn("protected path");
        return t.decide(
          "ask",
          "sensitive-write",
          `${q} is protected (${prot}) and no resource grant covers it`,
          "protected-resource",
          { safetyCheck: true },
        );
      }
    }
  }
  t.pass("sensitive-write", "no protected path without a grant");
  const directPath = allowed?.rule.specifier?.kind === "path";
  const ws = roots(ctx, access === "read", false);
  for (const p of paths) {
    if (insideRoots(p, ws, ctx) || directPath || granted(p, access, ctx)) continue;
    if (edits && access === "read") continue; // Edits reads span OS-readable paths
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
  if (f.kind === "read")
    return t.decide("allow", "read-only", "native reads inside the allowed roots need no prompt", "mode");
  if (f.exact === "agent" || f.exact === "task")
    return t.decide(
      "allow",
      "always-allowed",
      "delegation is allowed; the child's tools are checked",
      "always-allowed",
    );
  if (f.kind === "edit") {
    if (edits) return t.decide("allow", "accept-edits", "Edits applies native edits within the roots", "mode");
    return t.decide("allow", "fallback", "ApplyPatch carries its own per-hunk review in Ask mode", "mode");
  }
  return t.decide("ask", "fallback", "needs approval", "mode");
}
