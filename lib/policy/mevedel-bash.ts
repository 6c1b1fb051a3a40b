import type { CallFacts } from "./call";
import { insideRoots, roots } from "./context";
import { isInside, resolveCallPath } from "./paths";
import { mevedelProtection } from "./sensitive";
import { shellResourcePaths } from "./shell-paths";
import { mevedelDangerousPart, mevedelReadOnlyPart, type MevedelClass } from "./shell/mevedel-readers";
import { basename } from "./shell/wrappers";
import { analyzeShell } from "./shell/analyze";
import type { Grant, PolicyContext, ShellPart } from "./types";
import { anyDeny, bashVerdict, firstVerdict, type MevedelBucket, type Verdict } from "./mevedel-verdict";

/** Why a command is complex in Ask (seed 004 «Bash specifics»), or null. Single-quoted text expands nothing. */
export function complexReason(f: CallFacts): string | null {
  const a = f.shell;
  if (!a) return "no command";
  if (!a.allowable) return a.unsupported[0] ?? "unsupported syntax";
  for (const p of a.parts) {
    if (p.origin === "substitution") return "command substitution";
    if (p.assignments.length) return "assignment";
    if (p.writes.length) return "redirection";
    if (/[$`]/.test(unquoted(p.text))) return "expansion";
  }
  if (/[<>]/.test(a.command.replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, ""))) return "redirection or here-document";
  return null;
}

const unquoted = (s: string) => s.replace(/'[^']*'/g, "");

function partClass(p: ShellPart): MevedelClass {
  if (mevedelDangerousPart(p)) return "dangerous";
  if (p.assignments.length || p.writes.length || /[$`]/.test(unquoted(p.text))) return "complex";
  return mevedelReadOnlyPart(p) ? "read-only" : "unknown";
}

/** The command's segments (its top-level simple commands) and mevedel's class for it and for each segment. */
export function classify(f: CallFacts): { klass: MevedelClass; segments: ShellPart[]; classes: MevedelClass[] } {
  const parts = f.shell?.parts ?? [];
  const segments = parts.filter((p) => p.origin === "top");
  const classes = segments.map(partClass);
  let klass: MevedelClass;
  if (parts.some(mevedelDangerousPart)) klass = "dangerous";
  else if (complexReason(f)) klass = "complex";
  else if (segments.length && classes.every((c) => c === "read-only")) klass = "read-only";
  else klass = "unknown";
  return { klass, segments, classes };
}

/** Strings an explicit deny is checked against: the command and its segments (every rule), nested spellings (pattern rules only). */
export function bashDeny(buckets: MevedelBucket[], f: CallFacts, tool: "Shell" | "Eval"): Verdict | null {
  const command = (f.command ?? "").trim();
  if (tool === "Eval") return anyDeny(buckets, (b) => bashVerdict(b, "Eval", command));
  const parts = f.shell?.parts ?? [];
  const top = [command, ...parts.filter((p) => p.origin === "top").map((p) => p.text)];
  const nested = new Set<string>();
  for (const p of parts) {
    nested.add(p.text);
    if (p.argv.length) nested.add(p.argv.join(" "));
    if (p.core.length) {
      nested.add(p.core.join(" "));
      nested.add([basename(p.core[0]), ...p.core.slice(1)].join(" "));
    }
  }
  for (const c of top) {
    const v = anyDeny(buckets, (b) => bashVerdict(b, "Shell", c));
    if (v) return v;
  }
  for (const c of nested) {
    const v = anyDeny(buckets, (b) => bashVerdict(b, "Shell", c, { patternOnly: true }));
    if (v) return v;
  }
  return null;
}

export type BashOutcome = { action: "allow" | "ask"; why: string; via: "rule" | "mode" | "read-only"; rule?: Verdict };

/**
 * `mevedel-bash-policy-check-permission` after deny, Plan and full-auto: rule asks, Edits, direct authority for
 * dangerous and complex commands, per-segment authority, read-only inspection. A whole-command allow is honoured
 * only for a single segment (mevedel's `*` would also cover `&& …` after it; the cockpit reads it narrower).
 */
export function bashAuthority(buckets: MevedelBucket[], f: CallFacts, edits: boolean): BashOutcome {
  const command = (f.command ?? "").trim();
  const { klass, segments, classes } = classify(f);
  const full = firstVerdict(buckets, (b) => bashVerdict(b, "Shell", command));
  const seg = segments.map((s) => firstVerdict(buckets, (b) => bashVerdict(b, "Shell", s.text)));
  const single = segments.length === 1 && (f.shell?.parts.length ?? 0) === 1;
  if (full?.action === "ask") return { action: "ask", why: `ask rule ${full.rule.text}`, via: "rule", rule: full };
  const segAsk = seg.find((v) => v?.action === "ask");
  if (segAsk) return { action: "ask", why: `ask rule ${segAsk.rule.text}`, via: "rule", rule: segAsk };
  if (edits) return { action: "allow", why: "Edits runs arbitrary Bash under required confinement", via: "mode" };
  const fullAllow = full?.action === "allow" && single ? full : null;
  if ((klass === "dangerous" || klass === "complex") && fullAllow)
    return { action: "allow", why: `allowed by ${fullAllow.rule.text}`, via: "rule", rule: fullAllow };
  if (
    klass === "dangerous" &&
    segments.length &&
    seg.every((v, i) => v?.action === "allow" || classes[i] === "read-only") &&
    (f.shell?.parts.length ?? 0) === segments.length
  ) {
    const by = seg.find((v) => v?.action === "allow")!;
    return { action: "allow", why: `every segment is allowed or read-only (${by.rule.text})`, via: "rule", rule: by };
  }
  if (klass === "dangerous" || klass === "complex")
    return {
      action: "ask",
      why:
        klass === "dangerous"
          ? "a dangerous command needs a person"
          : `Ask mode asks for complex commands (${complexReason(f)})`,
      via: "mode",
    };
  if (segments.length && seg.every((v) => v?.action === "allow"))
    return { action: "allow", why: `every segment is allowed (${seg[0]!.rule.text})`, via: "rule", rule: seg[0]! };
  if (klass === "read-only") return { action: "allow", why: "recognised inspection command", via: "read-only" };
  if (fullAllow) return { action: "allow", why: `allowed by ${fullAllow.rule.text}`, via: "rule", rule: fullAllow };
  return { action: "ask", why: "Ask mode asks for uncertain execution", via: "mode" };
}

/** The command's literal resources resolved against cwd; a backslash-newline inside a word is joined first. */
function literalResources(f: CallFacts, ctx: PolicyContext): string[] {
  const out = shellResourcePaths(f).paths;
  if (f.command && /\\\n/.test(f.command)) {
    const joined = { ...f, shell: analyzeShell(f.command.replace(/\\\n/g, ""), ctx.shell) };
    out.push(...shellResourcePaths(joined).paths);
  }
  return out;
}

// mevedel's Bash check also treats a `.git`, `.ssh` or `.gnupg` segment in any operand as protected.
const PROTECTED_TOKEN = /(^|\/)\.(git|ssh|gnupg)(\/|$)/;

/** A protected resource of the command (after one symlink hop), or null: Ask and Plan ask before it, grants or not. */
export function bashProtected(f: CallFacts, ctx: PolicyContext): string | null {
  for (const p of literalResources(f, ctx)) {
    const link = ctx.resolveSymlink?.(p) ?? null;
    for (const q of link ? [p, link] : [p]) if (mevedelProtection(q, ctx.dialect) || PROTECTED_TOKEN.test(q)) return q;
  }
  return null;
}

/** Does a grant cover the path for this access (exact or recursive; write covers read)? */
export function grantCovers(p: string, access: "read" | "write", grants: Grant[], ctx: PolicyContext): boolean {
  const env = { workspaceRoot: ctx.workspaceRoot, cwd: ctx.workspaceRoot, home: ctx.home };
  return grants.some((g) => {
    if (access === "write" && g.access !== "write") return false;
    const gp = resolveCallPath(g.path, env);
    return g.recursive ? isInside(p, gp) : p === gp;
  });
}

/**
 * `mevedel-bash-policy-missing-resource-paths` (Ask): literal resources outside the allowed roots without a
 * covering grant, after symlink resolution (a grant on the link does not cover its target); `/dev/null` needs none.
 */
export function missingResources(f: CallFacts, ctx: PolicyContext, extra: Grant[]): string[] {
  const ws = roots(ctx, true, false);
  const grants = [...(ctx.grants ?? []), ...extra];
  const missing: string[] = [];
  for (const p of literalResources(f, ctx)) {
    if (p === "/dev/null") continue;
    const target = ctx.resolveSymlink?.(p) ?? p;
    if (insideRoots(target, ws, { ...ctx, resolveSymlink: undefined })) continue;
    if (grantCovers(target, "read", grants, ctx)) continue;
    if (!missing.includes(target)) missing.push(target);
  }
  return missing;
}
