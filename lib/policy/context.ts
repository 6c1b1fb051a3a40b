import type { CallFacts } from "./call";
import {
  allowParts,
  claudeAllowPart,
  candidates,
  compileRules,
  firstMatch,
  type Bucket,
  type CompiledRule,
  type CompiledSet,
} from "./match";
import { normalizeMode } from "./modes";
import { isInside, resolveCallPath } from "./paths";
import type { Mode, PolicyContext, Rule, ShellPart } from "./types";

const merged = new WeakMap<readonly Rule[], WeakMap<readonly Rule[], Rule[]>>();

/** Persistent and session rules as one stable array (so the compiled index stays cached). */
export function allRules(ctx: PolicyContext): readonly Rule[] {
  const s = ctx.sessionRules;
  if (!s || s.length === 0) return ctx.rules;
  let inner = merged.get(ctx.rules);
  if (!inner) merged.set(ctx.rules, (inner = new WeakMap()));
  let all = inner.get(s);
  if (!all || all.length !== s.length + ctx.rules.length) inner.set(s, (all = [...s, ...ctx.rules]));
  return all;
}

/** Compiled rules of the context. */
export function compiledFor(rules: readonly Rule[], ctx: PolicyContext): CompiledSet {
  return compileRules(rules, ctx);
}

/** Effective mode: aliases folded, unknown → default (with a warning), yolo → default under disableBypass. */
export function effectiveMode(ctx: PolicyContext): { mode: Mode; note: string | null } {
  const r = normalizeMode(ctx.dialect, String(ctx.mode ?? "default"));
  if (!r.ok) return { mode: "default", note: `${r.error}; evaluated as default` };
  if (r.value === "yolo" && ctx.disableBypass)
    return { mode: "default", note: "disableBypass: yolo evaluated as default" };
  if (r.value === "auto" && ctx.disableAutoMode)
    return { mode: "default", note: "disableAutoMode: auto evaluated as default" };
  return { mode: r.value, note: null };
}

/** Directories that count as inside the workspace for a read or a write. */
export function roots(ctx: PolicyContext, forRead: boolean, planWrite: boolean): string[] {
  const env = { workspaceRoot: ctx.workspaceRoot, cwd: ctx.workspaceRoot, home: ctx.home };
  const out = [ctx.workspaceRoot, ...(ctx.additionalDirectories ?? []), ...(ctx.tmpDirs ?? [])];
  if (forRead) out.push(...(ctx.skillDirs ?? []));
  if (planWrite && ctx.planDir) out.push(ctx.planDir);
  return out.map((d) => resolveCallPath(d, env));
}

/** Is the path (and its symlink target, if any) inside one of the roots? */
export function insideRoots(p: string, dirs: string[], ctx: PolicyContext): boolean {
  const ok = (q: string) => dirs.some((d) => isInside(q, d));
  if (!ok(p)) return false;
  const link = ctx.resolveSymlink?.(p) ?? null;
  return link === null || ok(link);
}

/** Allow match: for shell every top-level part and substitution must be covered by some allow rule (nothing stripped). */
export function allowMatch(
  b: Bucket,
  f: CallFacts,
  ctx: PolicyContext,
  only?: (cr: CompiledRule) => boolean,
): { rule: CompiledRule; all: CompiledRule[] } | null {
  if (!f.shell) {
    const cr = only ? (candidates(b, f, ctx).find((c) => only(c) && c.test(f, ctx)) ?? null) : firstMatch(b, f, ctx);
    return cr ? { rule: cr, all: [cr] } : null;
  }
  const parts = allowParts(f.shell.parts, f.shell.allowable);
  if (!parts || parts.length === 0) return null;
  const cands = only ? candidates(b, f, ctx).filter(only) : candidates(b, f, ctx);
  const used: CompiledRule[] = [];
  for (const p of parts) {
    const cr = cands.find((c) => coversPart(c, p));
    if (!cr) return null;
    if (!used.includes(cr)) used.push(cr);
  }
  return { rule: used[0], all: used };
}

/** Does one allow rule cover one subcommand (Claude Code: its stripped view, see `claudeAllowPart`)? */
export function coversPart(c: CompiledRule, p: ShellPart): boolean {
  const s = c.rule.specifier;
  if (c.strippedView)
    return (
      (s === null || c.testCommand !== undefined) &&
      claudeAllowPart(s?.kind === "shell" ? s.pattern : null, c.testCommand ?? (() => true), p)
    );
  return s === null || (c.testCommand !== undefined && c.testCommand(p.text));
}

/** An allow rule that names the content of a sensitive target (a bare tool allow does not count). */
export function allowNamingContent(b: Bucket, f: CallFacts, ctx: PolicyContext, token: string): CompiledRule | null {
  const m = allowMatch(b, f, ctx);
  if (!m) return null;
  const named = m.all.every((cr) => {
    const s = cr.rule.specifier;
    if (!s) return false;
    const text = s.kind === "param" ? s.value : s.kind === "expression" ? s.value : s.pattern;
    return text.includes(token);
  });
  return named ? m.rule : null;
}
