import { callFacts, type CallFacts } from "./call";
import { allowMatch, allowNamingContent, allRules, compiledFor, effectiveMode, insideRoots, roots } from "./context";
import { decideClaudeCode } from "./decide-claude-code";
import { decideMevedel } from "./decide-mevedel";
import { deletesRootOrHome } from "./decide-shared";
import { firstMatch } from "./match";
import { isInside, resolveCallPath } from "./paths";
import { protectedDecision, protectedHit } from "./protected";
import { sensitiveWrite } from "./sensitive";
import { needsPermission } from "./tools";
import { Trail } from "./trail";
import type { Decision, Mode, PolicyContext, ToolCall } from "./types";

/** Decide a tool call: allow, ask or deny, with the deciding step, rule, store, reason and trace. Synchronous; never throws. */
export function decide(call: ToolCall, ctx: PolicyContext): Decision {
  try {
    const ladder = ctx.dialect.ladder;
    if (ladder === "buckets") return failClosed(decideMevedel(call, ctx), ctx);
    const d = failClosed(ladder === "documented" ? decideClaudeCode(call, ctx) : decideLadder(call, ctx), ctx);
    return ctx.subagent && d.decision === "ask" ? asSubagent(d) : d;
  } catch (e) {
    // Fail towards a prompt, never towards allow.
    const t = new Trail();
    t.warn("engine error");
    return t.decide("ask", "fallback", `policy engine error: ${(e as Error).message}`, "safety", { safetyCheck: true });
  }
}

/**
 * A store that could not be read may hold deny rules the engine never saw: while one is listed, nothing is
 * allowed without a person (dont-ask: denied). Control-flow tools no rule can touch stay allowed.
 */
function failClosed(d: Decision, ctx: PolicyContext): Decision {
  const bad = ctx.invalidStores ?? [];
  if (bad.length === 0 || d.decision !== "allow" || (d.step === "always-allowed" && d.cause === "always-allowed"))
    return d;
  const mode = effectiveMode(ctx).mode;
  const decision = mode === "dont-ask" ? "deny" : "ask";
  const why = `${bad[0].path} (${bad[0].scope}) is invalid (${bad[0].error}): its rules are unknown, so nothing is allowed without a person`;
  return {
    ...d,
    decision,
    step: "invalid-store",
    rule: null,
    scope: bad[0].scope,
    store: bad[0].path,
    reason: why,
    cause: "safety",
    safetyCheck: true,
    warnings: [...new Set([...d.warnings, "invalid store"])],
    trace: [
      ...d.trace.slice(0, -1),
      { ...d.trace[d.trace.length - 1], outcome: "passed" },
      { step: "invalid-store", outcome: "decided", why },
    ],
  };
}

/** Seed 002: a subagent has no human to answer; ordinary prompts auto-allow, safety prompts are denied. */
function asSubagent(d: Decision): Decision {
  const failClosed = d.safetyCheck || d.cause !== "mode" || d.warnings.includes("dangerous command");
  const decision = failClosed ? "deny" : "allow";
  const why = failClosed
    ? "subagent: a safety prompt fails closed"
    : "subagent: runs autonomously, ordinary prompts are allowed";
  return {
    ...d,
    decision,
    reason: `${d.reason} (${why})`,
    trace: [...d.trace, { step: d.step, outcome: "decided", why }],
  };
}

const refuse = (mode: Mode) => (mode === "dont-ask" ? "deny" : "ask");

/** Is the call a mutation for plan mode? Secret-reading shell also leaves the read-only path. */
function mutates(f: CallFacts): boolean {
  if (f.kind === "edit" || f.kind === "eval" || f.kind === "mcp" || f.kind === "other") return true;
  if (f.kind === "shell") return !(f.shell?.readOnly && f.shell.secretArgs.length === 0);
  return false;
}

/** Sensitive targets written by the call (file tools, safe file commands, output redirections). */
function sensitiveTargets(f: CallFacts): { reason: string; token: string }[] {
  const out: { reason: string; token: string }[] = [];
  const paths = f.kind === "edit" ? [...f.paths] : [];
  if (f.shell) {
    for (const t of f.shell.fileTargets) paths.push(resolveCallPath(t, f.env));
    for (const w of f.shell.writes) paths.push(resolveCallPath(w, f.env));
  }
  for (const p of paths) {
    const s = sensitiveWrite(p);
    if (s) out.push(s);
  }
  return out;
}

function decideLadder(call: ToolCall, ctx: PolicyContext): Decision {
  const t = new Trail();
  const { mode, note } = effectiveMode(ctx);
  if (note) t.warn(note);
  const f = callFacts(call, ctx);

  // Control-flow tools bypass every list; run_command is withdrawn in plan mode.
  const always = f.kind === "always";
  if (always && f.exact === "run_command" && mode === "plan")
    return t.decide("deny", "plan-mode", "run_command is not available in plan mode", "mode");
  if (always) return t.decide("allow", "always-allowed", `${call.tool} is always allowed`, "always-allowed");
  const rules = compiledFor(allRules(ctx), ctx);

  const deny = firstMatch(rules.deny, f, ctx);
  if (deny) return t.decide("deny", "deny-rule", `denied by ${deny.rule.text}`, "rule", { rule: deny.rule });
  t.pass("deny-rule", "no deny rule matches");

  const prot = protectedHit(f, ctx);
  if (prot) return protectedDecision(t, prot, mode);
  t.pass("protected-path", "names no protected folder");

  const ask = firstMatch(rules.ask, f, ctx);
  if (ask) {
    const d = refuse(mode);
    return t.decide(
      d,
      "ask-rule",
      d === "deny" ? `ask rule ${ask.rule.text} in dont-ask mode` : `ask rule ${ask.rule.text}`,
      "explicit-ask-rule",
      { rule: ask.rule, safetyCheck: true },
    );
  }
  t.pass("ask-rule", "no ask rule matches");

  if (f.shell) {
    if (!f.shell.parseable || !f.shell.allowable) t.warn("unsupported shell syntax");
    if (f.shell.dangerous) t.warn("dangerous command");
    if (f.shell.secretArgs.length) t.warn("secret material");
  }

  const isPlanWrite =
    mode === "plan" &&
    f.kind === "edit" &&
    !!ctx.planDir &&
    f.paths.length > 0 &&
    f.paths.every((p) => isInside(p, resolveCallPath(ctx.planDir!, f.env)));
  const external = externalTargets(f, ctx, isPlanWrite);
  if (external.length) {
    const preApproved = allowMatch(rules.allow, f, ctx)?.all.every((cr) => cr.rule.specifier !== null) ?? false;
    if (mode === "yolo") t.pass("external-dir", `outside the workspace (${external[0]}); yolo admits it silently`);
    else if (preApproved) t.pass("external-dir", `outside the workspace (${external[0]}) but named by an allow rule`);
    else if (mode === "plan" && mutates(f)) t.skip("external-dir", "plan mode refuses the mutation below");
    else if (mode === "dont-ask")
      return t.decide(
        "deny",
        "external-dir",
        `${external[0]} is outside the workspace and not pre-approved`,
        "resource-boundary",
      );
    else
      return t.decide(
        "ask",
        "external-dir",
        `${external[0]} is outside the workspace: admit the directory first`,
        "resource-boundary",
        { safetyCheck: true },
      );
  } else t.pass("external-dir", "inside the workspace roots");

  if (mode === "plan" && mutates(f) && !isPlanWrite) {
    return t.decide("deny", "plan-mode", "plan mode is read-only: only the plan file may be written", "mode");
  }
  if (isPlanWrite) return t.decide("allow", "plan-mode", "the plan file is plan mode's sanctioned output", "mode");
  t.pass("plan-mode", mode === "plan" ? "does not mutate" : `mode is ${mode}`);

  if (f.pathMissing)
    return t.decide("deny", "malformed-write", `${call.tool} names no file path; pass the path to write`, "safety");
  t.pass("malformed-write", "not a write without a path");

  const free = f.kind === "read" || f.kind === "web-fetch" || f.kind === "web-search" || f.kind === "native";
  if (free && needsPermission(ctx.dialect, f.exact))
    t.pass("read-only", `${call.tool} requires permission in ${ctx.dialect.label} (its tools reference)`);
  else if (free) return t.decide("allow", "read-only", "reads are free unless a rule says otherwise", "mode");
  else if (f.shell?.readOnly) {
    if (f.shell.secretArgs.length)
      t.pass("read-only", `read-only command targets secret material (${f.shell.secretArgs.join(", ")})`);
    else return t.decide("allow", "read-only", "read-only shell command", "mode");
  } else t.pass("read-only", "not a read-only call");

  if (deletesRootOrHome(f, ctx)) {
    t.warn("root/home delete");
    const d = mode === "dont-ask" || mode === "plan" ? "deny" : "ask";
    return t.decide(d, "root-home-delete", "deletes the file-system root or the home directory", "safety", {
      safetyCheck: true,
    });
  }
  t.pass("root-home-delete", "no root or home delete");

  if (mode === "yolo") return t.decide("allow", "yolo", "yolo mode allows what the rules and guards left open", "mode");
  t.pass("yolo", `mode is ${mode}`);

  const sensitive = sensitiveTargets(f);
  if (sensitive.length) {
    t.warn("protected path");
    const named = sensitive.every((s) => allowNamingContent(rules.allow, f, ctx, s.token));
    if (!named) {
      const d = refuse(mode);
      return t.decide(
        d,
        "sensitive-write",
        `writes ${sensitive[0].reason}; needs an allow rule naming it`,
        "protected-resource",
        { safetyCheck: true },
      );
    }
    t.pass("sensitive-write", `sensitive target named by an allow rule`);
  } else t.pass("sensitive-write", "no sensitive target");

  const allow = allowMatch(rules.allow, f, ctx);
  if (allow)
    return t.decide("allow", "allow-rule", `allowed by ${allow.all.map((c) => c.rule.text).join(", ")}`, "rule", {
      rule: allow.rule.rule,
    });
  t.pass(
    "allow-rule",
    f.shell && !f.shell.allowable
      ? "command is not fully parseable: allow rules never match it"
      : "no allow rule matches",
  );

  if (mode === "accept-edits") {
    const why = acceptEditsBlocker(f, ctx);
    if (why === null)
      return t.decide(
        "allow",
        "accept-edits",
        f.kind === "edit"
          ? "accept-edits allows ordinary edits in the workspace"
          : "accept-edits allows safe file commands in the workspace",
        "mode",
      );
    t.pass("accept-edits", why);
  } else t.pass("accept-edits", `mode is ${mode}`);

  if (f.shell?.recursiveDelete) t.warn("recursive delete");
  const d = refuse(mode);
  const secret = !!f.shell?.readOnly && f.shell.secretArgs.length > 0;
  return t.decide(
    d,
    "fallback",
    d === "deny"
      ? "dont-ask denies what is not pre-approved"
      : secret
        ? "reads secret material through the shell"
        : "needs approval",
    secret ? "protected-resource" : "mode",
    { safetyCheck: secret },
  );
}

/** Paths outside the roots: file-tool targets, or the shell's working directory (shell arguments are not a boundary). */
function externalTargets(f: CallFacts, ctx: PolicyContext, planWrite: boolean): string[] {
  if (f.kind === "read") return f.paths.filter((p) => !insideRoots(p, roots(ctx, true, false), ctx));
  if (f.kind === "edit") return f.paths.filter((p) => !insideRoots(p, roots(ctx, false, planWrite), ctx));
  if (f.kind === "shell") return insideRoots(f.env.cwd, roots(ctx, false, false), ctx) ? [] : [f.env.cwd];
  return [];
}

/** Why accept-edits cannot allow the call, or null when it can. */
function acceptEditsBlocker(f: CallFacts, ctx: PolicyContext): string | null {
  const ws = roots(ctx, false, false);
  if (f.kind === "edit") return f.paths.every((p) => insideRoots(p, ws, ctx)) ? null : "edit outside the workspace";
  if (!f.shell) return "not an edit or a safe file command";
  const a = f.shell;
  if (a.recursiveDelete) return "recursive deletes still ask";
  if (a.secretArgs.length) return "reads secret material";
  if (!a.safeFileCommand) return "not a safe file command";
  for (const tgt of a.fileTargets) {
    const p = resolveCallPath(tgt, f.env);
    if (!insideRoots(p, ws, ctx)) return `${tgt} is outside the workspace`;
    if (sensitiveWrite(p)) return `${tgt} is sensitive`;
  }
  return null;
}
