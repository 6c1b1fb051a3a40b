/**
 * Claude Code's ladder, as its documentation describes it (code.claude.com: permissions, permission-modes,
 * tools-reference, settings). Where the docs are silent the cockpit asks; where it is deliberately stricter the
 * reason says so ("stricter than Claude Code") and docs/policy.md lists it. Step names are DESIGN.md's.
 */
import { callFacts, type CallFacts } from "./call";
import { ccShell, insideAny, workingDirs, type CcPart, type CcShell } from "./claude-code/bash";
import { criticalRemoval } from "./claude-code/critical";
import { claudeProtected } from "./claude-code/protected-paths";
import { isPrefixPattern } from "./claude-code/strip";
import {
  allowMatch,
  allowNamingContent,
  allRules,
  compiledFor,
  coversPart,
  effectiveMode,
  insideRoots,
} from "./context";
import { deletesRootOrHome } from "./decide-shared";
import { candidates, firstMatch, type Bucket, type CompiledRule, type CompiledSet } from "./match";
import { dirnameAbs, isInside, resolveCallPath } from "./paths";
import { protectedDecision, protectedHit } from "./protected";
import { sensitiveWrite } from "./sensitive";
import { isReadOnlyPart, safeFileTargets } from "./shell/classify";
import { needsPermission } from "./tools";
import { Trail } from "./trail";
import type { Action, Decision, Mode, PolicyContext, ToolCall } from "./types";

/** Marker the reason and warnings carry when the cockpit is deliberately stricter than Claude Code. */
export const STRICTER = "stricter than Claude Code";

const refuse = (mode: Mode): Action => (mode === "dont-ask" ? "deny" : "ask");

/** Facts for the files a shell command names, so Read/Edit path rules apply to them ("file commands Claude Code recognizes in Bash"). */
function fileFacts(f: CallFacts, kind: "read" | "edit", paths: string[]): CallFacts {
  return {
    ...f,
    kind,
    names: kind === "read" ? ["read"] : ["edit", "write"],
    exact: kind === "read" ? "read" : "edit",
    paths,
    shell: null,
    command: null,
  };
}

const pathRule = (b: Bucket, f: CallFacts, ctx: PolicyContext): CompiledRule | null =>
  f.paths.length === 0
    ? null
    : (candidates(b, f, ctx).find((cr) => cr.rule.specifier?.kind === "path" && cr.test(f, ctx)) ?? null);

/** A deny or ask rule matching the call: tool rules, and for Bash the Read/Edit rules over the files it names. */
function ruleHit(b: Bucket, f: CallFacts, ctx: PolicyContext, cs: CcShell | null): CompiledRule | null {
  const hit = firstMatch(b, f, ctx);
  if (hit || !cs) return hit;
  // "Read and Edit deny rules apply … to file commands Claude Code recognizes in Bash, such as `cat`, `head`,
  // `tail`, `sed`, and `tee`, and to the targets of Bash redirections" (permissions#read-and-edit). Every word that
  // names a file counts (stricter than the recognised set); writes also meet Read deny rules ("A `Read` deny rule
  // also blocks the Edit and Write tools").
  return pathRule(b, fileFacts(f, "read", cs.reads), ctx) ?? pathRule(b, fileFacts(f, "edit", cs.writes), ctx);
}

/** Auto mode drops "broad allow rules that grant arbitrary code execution"; the cockpit keeps only narrow ones. */
function narrow(cr: CompiledRule): boolean {
  const s = cr.rule.specifier;
  if (s === null) return /^mcp__[^*]+__[^*]+$/i.test(cr.rule.tool);
  if (s.kind === "shell") return !isPrefixPattern(s.pattern);
  return cr.rule.tool.toLowerCase() !== "agent";
}

export function decideClaudeCode(call: ToolCall, ctx: PolicyContext): Decision {
  const t = new Trail();
  const { mode, note } = effectiveMode(ctx);
  if (note) t.warn(note);
  const f = callFacts(call, ctx);
  const rules = compiledFor(allRules(ctx), ctx);
  const cs = f.shell ? ccShell(f, ctx) : null;

  // EndConversation: "a deny or ask rule can't block `EndConversation` while any other tool remains".
  if (f.exact === "endconversation")
    return t.decide("allow", "always-allowed", "EndConversation is never blocked by a rule", "always-allowed");

  const deny = ruleHit(rules.deny, f, ctx, cs);
  if (deny) return t.decide("deny", "deny-rule", `denied by ${deny.rule.text}`, "rule", { rule: deny.rule });
  t.pass("deny-rule", "no deny rule matches");

  const prot = protectedHit(f, ctx);
  if (prot) return protectedDecision(t, prot, mode);
  t.pass("protected-path", "names no protected folder");

  const ask = ruleHit(rules.ask, f, ctx, cs);
  if (ask) {
    const d = refuse(mode);
    return t.decide(
      d,
      "ask-rule",
      d === "deny" ? `ask rule ${ask.rule.text} in dontAsk mode` : `ask rule ${ask.rule.text}`,
      "explicit-ask-rule",
      { rule: ask.rule, safetyCheck: true },
    );
  }
  t.pass("ask-rule", "no ask rule matches");

  // "Tools that require user interaction: the built-in `AskUserQuestion` tool" are auto-approved in no mode;
  // dontAsk "denies the built-in `AskUserQuestion` tool even if your allow rules match it".
  if (f.exact === "askuserquestion" || f.exact === "ask_user_question") {
    const d = refuse(mode);
    return t.decide(
      d,
      "always-allowed",
      d === "deny" ? "dontAsk denies AskUserQuestion" : "AskUserQuestion needs the person's answer",
      "mode",
    );
  }
  if (f.kind === "always")
    return t.decide("allow", "always-allowed", `${call.tool} needs no permission`, "always-allowed");

  if (cs) {
    if (!f.shell!.parseable || !f.shell!.allowable) t.warn("unsupported shell syntax");
    if (f.shell!.dangerous) t.warn("dangerous command");
    if (f.shell!.secretArgs.length) t.warn("secret material");
  }

  // Critical paths: "Claude Code never lets a `permissions.allow` rule … approve an `rm` or `rmdir` command that
  // targets a critical path, even in modes that skip other prompts." dontAsk denies; every other mode asks.
  const critical = cs
    ? (criticalRemoval(f, ctx) ?? (deletesRootOrHome(f, ctx) ? "deletes the root or home" : null))
    : null;
  if (critical) {
    t.warn("root/home delete");
    return t.decide(refuse(mode), "root-home-delete", `critical-path removal: ${critical}`, "safety", {
      safetyCheck: true,
    });
  }
  t.pass("root-home-delete", "no critical-path removal");

  // "If the path Claude asks to edit or write is itself a symlink, the Edit and Write tools refuse the write and
  // direct Claude to the link's target" (permissions#symlinks) — in every mode.
  const link =
    f.kind === "edit" ? f.paths.map((p) => [p, selfLink(p, ctx)] as const).find(([, l]) => l !== null) : undefined;
  if (link)
    return t.decide(
      "deny",
      "malformed-write",
      `${link[0]} is a symbolic link: Claude Code refuses to write through it (write to ${link[1]} instead)`,
      "safety",
    );

  if (mode === "yolo")
    return t.decide("allow", "yolo", "bypassPermissions runs what the rules and critical paths leave open", "mode");
  t.pass("yolo", `mode is ${mode}`);

  if (cs) return shellLadder(t, f, ctx, rules, cs, mode);
  if (f.kind === "edit") return editLadder(t, f, ctx, rules, mode);
  if (f.kind === "read") return readLadder(t, f, ctx, rules, mode);

  const free = f.kind === "native" && !needsPermission(ctx.dialect, f.exact);
  if (free) return t.decide("allow", "read-only", `${call.tool} needs no permission`, "mode");
  if (f.kind === "shell") {
    // A Bash call without a command: nothing to match.
    return t.decide(refuse(mode), "fallback", "Bash call without a command", "mode");
  }
  if (mode === "plan") return t.decide("ask", "plan-mode", "plan mode: anything beyond reading prompts", "mode");
  const allow = allowMatch(rules.allow, f, ctx, mode === "auto" ? narrow : undefined);
  if (allow) return allowed(t, allow.all);
  const why =
    f.kind === "web-fetch"
      ? `needs approval (the preapproved documentation domains are not modelled: ${STRICTER})`
      : "needs approval";
  return fallback(t, mode, why, { held: ctx.held });
}

function allowed(t: Trail, all: CompiledRule[]): Decision {
  return t.decide("allow", "allow-rule", `allowed by ${[...new Set(all.map((c) => c.rule.text))].join(", ")}`, "rule", {
    rule: all[0].rule,
  });
}

function fallback(
  t: Trail,
  mode: Mode,
  base: string,
  opts: { safetyCheck?: boolean; cause?: "mode" | "safety"; held?: PolicyContext["held"] } = {},
) {
  const d = refuse(mode);
  if (base.includes(STRICTER)) t.warn(STRICTER);
  const held = opts.held;
  const why = held?.rules
    ? `${base} (${held.rules} allow rule${held.rules === 1 ? "" : "s"} held back: ${held.why})`
    : base;
  const reason =
    d === "deny"
      ? `dontAsk denies what would prompt (${why})`
      : mode === "auto"
        ? `${why}; the cockpit has no auto-mode classifier`
        : why;
  return t.decide(d, "fallback", reason, opts.cause ?? "mode", { safetyCheck: opts.safetyCheck });
}

/** The target when `p` itself (its last segment) is a symbolic link, else null. */
function selfLink(p: string, ctx: PolicyContext): string | null {
  const resolve = ctx.resolveSymlink;
  if (!resolve) return null;
  const self = resolve(p);
  if (self === null) return null;
  const dir = dirnameAbs(p);
  const parent = resolve(dir) ?? dir;
  const name = p.slice(p.lastIndexOf("/") + 1);
  return self === (parent === "/" ? `/${name}` : `${parent}/${name}`) ? null : self;
}

/** Claude Code's protected path among `paths` (or a symlink target), or null. */
function protectedWrite(paths: string[], f: CallFacts, ctx: PolicyContext): string | null {
  const opts = {
    home: resolveCallPath(ctx.home, f.env),
    planDir: ctx.planDir ? resolveCallPath(ctx.planDir, f.env) : undefined,
    fold: ctx.caseInsensitiveFs,
  };
  for (const p of paths) {
    const link = ctx.resolveSymlink?.(p) ?? null;
    const why = claudeProtected(p, opts) ?? (link ? claudeProtected(link, opts) : null);
    if (why) return `${p} is ${why}`;
  }
  return null;
}

/** Writes to a protected path: "never auto-approved"; allow rules "do not pre-approve" them; dontAsk denies. */
function protectedRefusal(t: Trail, mode: Mode, why: string): Decision {
  t.warn("protected path");
  return t.decide(refuse(mode), "sensitive-write", `${why}: allow rules never pre-approve it`, "protected-resource", {
    safetyCheck: true,
  });
}

/** The cockpit's own sensitive targets beyond Claude Code's list (`.env`, keys, `.ssh/` …): deliberately stricter. */
function sensitiveRefusal(t: Trail, f: CallFacts, ctx: PolicyContext, rules: CompiledSet, mode: Mode, paths: string[]) {
  const sensitive = paths.map(sensitiveWrite).filter((s) => s !== null);
  if (!sensitive.length) return null;
  t.warn("protected path");
  const named = sensitive.every((s) => allowNamingContent(rules.allow, f, ctx, s.token));
  if (named) {
    t.pass("sensitive-write", "sensitive target named by an allow rule");
    return null;
  }
  t.warn(STRICTER);
  return t.decide(
    refuse(mode),
    "sensitive-write",
    `writes ${sensitive[0].reason}; needs an allow rule naming it (${STRICTER}, which would not ask here)`,
    "protected-resource",
    { safetyCheck: true },
  );
}

function editLadder(t: Trail, f: CallFacts, ctx: PolicyContext, rules: CompiledSet, mode: Mode): Decision {
  const plan = ctx.planDir ? resolveCallPath(ctx.planDir, f.env) : null;
  const isPlanWrite = plan !== null && f.paths.length > 0 && f.paths.every((p) => isInside(p, plan) && p !== plan);
  if (mode === "plan") {
    if (isPlanWrite) return t.decide("allow", "plan-mode", "the plan file is plan mode's own output", "mode");
    // "edits stay blocked until you approve the plan": Claude Code puts the edit to the person ("Cannot write to …
    // while in plan mode"), as the oracle recorded; no rule approves it.
    return t.decide("ask", "plan-mode", "plan mode: edits stay blocked until the plan is approved", "mode", {
      safetyCheck: true,
    });
  }
  t.pass("plan-mode", `mode is ${mode}`);
  if (f.pathMissing)
    return t.decide("deny", "malformed-write", `${f.call.tool} names no file path; pass the path to write`, "safety");
  t.pass("malformed-write", "names its file");

  const prot = protectedWrite(f.paths, f, ctx);
  if (prot) return protectedRefusal(t, mode, prot);

  const dirs = workingDirs(ctx);
  const planDirs = isPlanWrite && plan ? [...dirs, plan] : dirs;
  const allow = allowMatch(rules.allow, f, ctx, mode === "auto" ? narrow : undefined);
  const outside = f.paths.filter((p) => !insideRoots(p, planDirs, ctx));
  if (outside.length && !allow) {
    return t.decide(
      refuse(mode),
      "external-dir",
      `${outside[0]} is outside the working directories${mode === "dont-ask" ? "" : ": add it or allow it"}`,
      "resource-boundary",
      { safetyCheck: true },
    );
  }
  t.pass("external-dir", outside.length ? "outside, but an allow rule names it" : "inside the working directories");

  const sens = sensitiveRefusal(t, f, ctx, rules, mode, f.paths);
  if (sens) return sens;
  if (allow) return allowed(t, allow.all);
  t.pass("allow-rule", "no allow rule matches");
  // acceptEdits: "Automatically accepts file edits … for paths in the working directory or additionalDirectories";
  // auto: "file edits in your working directory are auto-approved".
  if ((mode === "accept-edits" || mode === "auto") && !outside.length)
    return t.decide(
      "allow",
      "accept-edits",
      `${mode === "auto" ? "auto" : "acceptEdits"} allows edits in the working directories`,
      "mode",
    );
  t.pass("accept-edits", `mode is ${mode}`);
  return fallback(t, mode, "file edits need approval", { held: ctx.held });
}

function readLadder(t: Trail, f: CallFacts, ctx: PolicyContext, rules: CompiledSet, mode: Mode): Decision {
  const dirs = workingDirs(ctx);
  if (ctx.planDir) dirs.push(resolveCallPath(ctx.planDir, f.env));
  const outside = f.paths.filter((p) => !insideRoots(p, dirs, ctx));
  // "Read-only | File reads, Grep | No, within the working directory and additional directories".
  if (!outside.length) return t.decide("allow", "read-only", "reads inside the working directories are free", "mode");
  t.pass("read-only", `${outside[0]} is outside the working directories`);
  // A Read allow rule, or an Edit allow rule ("also grants read access to the same path").
  const allow = allowMatch(rules.allow, f, ctx, mode === "auto" ? narrow : undefined);
  if (allow) return allowed(t, allow.all);
  return t.decide(
    refuse(mode),
    "external-dir",
    `${outside[0]} is outside the working directories${mode === "dont-ask" ? "" : ": add it or allow it"}`,
    "resource-boundary",
    { safetyCheck: true },
  );
}

/** A command the cockpit's generic read-only list knows but Claude Code's documented set does not name. */
const READERS_BEYOND_DOCS = (cp: CcPart) => !cp.readOnly && cp.part.argv[0] !== "cd" && isReadOnlyPart(cp.part);

/** How one subcommand is approved, or why it is not. */
type PartVerdict = { by: "read-only" | "allow-rule" | "accept-edits"; rule?: CompiledRule } | { why: string };

function shellLadder(
  t: Trail,
  f: CallFacts,
  ctx: PolicyContext,
  rules: CompiledSet,
  cs: CcShell,
  mode: Mode,
): Decision {
  const dirs = workingDirs(ctx);
  const prot = protectedWrite(cs.writes, f, ctx);
  if (prot) return protectedRefusal(t, mode, prot);
  t.pass("sensitive-write", "writes no protected path");

  // The shell's own folder outside the working directories.
  if (!insideRoots(f.env.cwd, dirs, ctx))
    return t.decide(
      refuse(mode),
      "external-dir",
      `${f.env.cwd} is outside the working directories`,
      "resource-boundary",
      {
        safetyCheck: true,
      },
    );
  t.pass("external-dir", "runs inside the working directories");

  if (cs.prompts.length) {
    if (cs.prompts[0].includes(STRICTER)) t.warn(STRICTER);
    return t.decide(refuse(mode), "fallback", `Claude Code always prompts here: ${cs.prompts[0]}`, "safety", {
      safetyCheck: true,
    });
  }
  t.pass("read-only", "none of the always-prompt cases");

  const secret = new Set(f.shell!.secretArgs);
  const allowCands = candidates(rules.allow, f, ctx).filter((c) => c.rule.specifier === null || c.testCommand);
  const verdict = (cp: CcPart): PartVerdict => {
    const isSecret = cp.part.argv.slice(1).some((a) => secret.has(a));
    if (cp.readOnly && !cp.outside.length && !isSecret && mode !== "auto") return { by: "read-only" };
    // "Subcommands like `cd` into a directory outside your working directories generate their own Read rule for
    // that path": such a `cd` is approved by a Read (or Edit) allow rule for the folder, not by a Bash rule.
    if (cp.part.argv[0] === "cd" && cp.outside.length) {
      const dir = cp.outside[0];
      const read = dir.startsWith("/")
        ? allowMatch(rules.allow, fileFacts(f, "read", [dir]), ctx, (c) => c.rule.specifier?.kind === "path")
        : null;
      return read && mode !== "plan"
        ? { by: "allow-rule", rule: read.rule }
        : { why: `cd into ${dir}, outside the working directories` };
    }
    const rule = allowCands.find((c) => (mode !== "auto" || narrow(c)) && coversPart(c, cp.part));
    if (rule && mode !== "plan") return { by: "allow-rule", rule };
    if (mode === "accept-edits" && acceptEditsPart(cp, f, ctx, dirs)) return { by: "accept-edits" };
    if (isSecret) return { why: `${cp.view.text} reads secret material (${STRICTER})` };
    if (cp.readOnly && mode === "auto")
      return {
        why: `${cp.view.text}: read-only commands may wait for auto mode's review, which the cockpit cannot run (${STRICTER})`,
      };
    if (cp.readOnly && cp.outside.length)
      return { why: `${cp.view.text} names ${cp.outside[0]}, outside the working directories` };
    if (cp.view.blocked) return { why: `${cp.view.text}: ${cp.view.blocked}; allow rules do not match past it` };
    if (cp.view.execWrapper)
      return {
        why: `${cp.view.execWrapper} is an exec wrapper: only an exact allow rule approves it${allowCands.some((c) => c.rule.specifier === null) ? ` (a bare Bash allow does not: ${STRICTER})` : ""}`,
      };
    if (mode === "accept-edits" && cp.view.argv[0] === "rm" && f.shell!.recursiveDelete)
      return { why: `${cp.view.text}: acceptEdits does not approve recursive removals (${STRICTER})` };
    if (READERS_BEYOND_DOCS(cp))
      return {
        why: `${cp.view.text} needs approval: ${cp.part.argv[0]} is not in Claude Code's documented read-only set (${STRICTER})`,
      };
    return { why: `${cp.view.text || cp.part.text} needs approval` };
  };
  const verdicts = cs.parts.map((cp) => ({ cp, v: verdict(cp) }));
  const open = verdicts.find((x) => "why" in x.v);

  if (mode === "plan") {
    if (!open && !cs.targets.length && !cs.unresolved.length)
      return t.decide("allow", "read-only", "read-only command (plan mode reads freely)", "mode");
    return t.decide("ask", "plan-mode", "plan mode: commands outside the read-only set prompt", "mode");
  }
  t.pass("plan-mode", `mode is ${mode}`);

  // Redirect and tee targets: "checks the target … as a file write. The check covers your `Edit` allow and deny
  // rules, protected paths, and the working directories … A target that starts with `~` or contains a glob
  // character needs your approval."
  let targetWhy: string | null = cs.unresolved.length
    ? `${cs.unresolved[0]} is a redirect target Claude Code cannot check`
    : null;
  const editAllow = (p: string) =>
    allowMatch(
      rules.allow,
      fileFacts(f, "edit", [p]),
      ctx,
      (c) => c.rule.specifier?.kind === "path" && (mode !== "auto" || narrow(c)),
    ) !== null;
  if (!targetWhy)
    for (const p of cs.targets) {
      const inWork = insideRoots(p, dirs, ctx);
      if (editAllow(p) || ((mode === "accept-edits" || mode === "auto") && inWork)) continue;
      targetWhy = inWork
        ? `writes ${p} (an edit needs approval in ${mode})`
        : `writes ${p}, outside the working directories`;
      break;
    }

  // "for `< file`, the check covers your `Read` allow and deny rules and the working directories".
  if (!targetWhy)
    for (const p of cs.inputs) {
      if (insideRoots(p, dirs, ctx)) continue;
      const read = allowMatch(rules.allow, fileFacts(f, "read", [p]), ctx, (c) => c.rule.specifier?.kind === "path");
      if (read) continue;
      targetWhy = `reads ${p}, outside the working directories`;
      break;
    }

  if (open || targetWhy) {
    if (f.shell!.recursiveDelete) t.warn("recursive delete");
    return fallback(t, mode, open && "why" in open.v ? open.v.why : targetWhy!, { held: ctx.held });
  }
  const sens = sensitiveRefusal(t, f, ctx, rules, mode, cs.writes);
  if (sens) return sens;
  const used = verdicts.flatMap((x) => ("rule" in x.v && x.v.rule ? [x.v.rule] : []));
  if (used.length) return allowed(t, used);
  if (verdicts.some((x) => "by" in x.v && x.v.by === "accept-edits"))
    return t.decide("allow", "accept-edits", "acceptEdits allows its file commands in the working directories", "mode");
  return t.decide("allow", "read-only", "read-only command", "mode");
}

/**
 * acceptEdits: "auto-approves common filesystem Bash commands: `mkdir`, `touch`, `rm`, `rmdir`, `mv`, `cp`, and
 * `sed` … also … when prefixed with safe environment variables … or process wrappers … only to paths inside your
 * working directory or `additionalDirectories`". Recursive removals still ask (stricter).
 */
function acceptEditsPart(cp: CcPart, f: CallFacts, ctx: PolicyContext, dirs: string[]): boolean {
  if (cp.view.blocked || cp.part.writes.length) return false;
  const shaped = { ...cp.part, argv: cp.view.argv, assignments: [], wrappers: [], writes: [] };
  const targets = safeFileTargets(shaped);
  if (targets === null) return false;
  const env = { ...f.env, cwd: cp.cwd ?? f.env.cwd };
  if (cp.cwd === null && targets.some((x) => !x.startsWith("/"))) return false;
  return targets.every((x) => {
    const p = resolveCallPath(x, env);
    return insideRoots(p, dirs, ctx) && !sensitiveWrite(p) && insideAny(p, dirs);
  });
}
