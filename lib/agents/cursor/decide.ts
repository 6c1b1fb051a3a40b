/**
 * Cursor CLI's decision, emulated (pure; the caller hands in stores and the shell parser).
 * Documented (https://cursor.com/docs/cli/reference/permissions): deny beats allow; whatever no allow entry covers
 * prompts; `Shell` matches the first token. Everything the docs leave open — compound commands, pipes, substitutions,
 * redirections, how project files merge — is decided conservatively and the decision says `inferred: true` with why.
 */
import {
  analyzeShell,
  type PolicyContext,
  type ShellAnalysis,
  type ShellParser,
  type ShellPart,
  type StepName,
  type ToolCall,
} from "@/lib/policy";
import { callFacts } from "@/lib/policy/call";
import { resolveCallPath } from "@/lib/policy/paths";
import { protectedHit } from "@/lib/policy/protected";
import { settingsDialect } from "../shared/dialect";
import type { CursorCall } from "./call";
import type { CursorAction, CursorRule, CursorScope } from "./config";
import { info } from "./info";
import { hostOf, matchDomain, matchMcp, matchPath, matchShellPart, type Match, type PathEnv } from "./match";

/** `default` = Cursor's allowlist mode. `force` = `--force`/`--yolo` ("force allow commands unless explicitly denied"). */
export type CursorMode = "default" | "auto-review" | "force" | "unrestricted";
export const CURSOR_MODES: readonly CursorMode[] = ["default", "auto-review", "force", "unrestricted"];

/** Accepts Cursor's own names (`allowlist`, `auto-review`, `unrestricted`, `--yolo`). */
export function normalizeCursorMode(mode: string | undefined): CursorMode | null {
  const m = (mode ?? "default").trim().toLowerCase().replace(/^--/, "");
  if (m === "" || m === "default" || m === "allowlist") return "default";
  if (m === "auto-review" || m === "autoreview") return "auto-review";
  if (m === "force" || m === "yolo" || m === "f") return "force";
  if (m === "unrestricted" || m === "run-everything") return "unrestricted";
  return null;
}

/** What decide reads of a store (CursorStore satisfies it). */
export interface CursorStoreView {
  path: string;
  scope: CursorScope;
  valid: boolean;
  error?: string;
  strictJson: boolean;
  definesAllow: boolean;
  rules: CursorRule[];
}

export interface CursorContext extends PathEnv {
  /** Cursor's working folder (relative call paths resolve here); default the workspace root. */
  cwd?: string;
  mode?: CursorMode;
  /** Outermost first: global, then project files from the git root down to cwd. */
  stores: CursorStoreView[];
  shell?: ShellParser | null;
  /**
   * The cockpit's own data folder(s): a call that reads, writes or names one asks a person (never allowed by an
   * entry or a mode), as for every agent (lib/policy/protected.ts). Stricter than Cursor, on purpose.
   */
  protectedPaths?: string[];
  resolveSymlink?: (absPath: string) => string | null;
}

export type CursorStep = Extract<
  StepName,
  "deny-rule" | "allow-rule" | "fallback" | "yolo" | "invalid-store" | "protected-path"
>;

export interface CursorTraceEntry {
  step: CursorStep | "segment" | "merge" | "mode";
  outcome: "passed" | "decided" | "skipped";
  why: string;
}

export interface CursorDecision {
  decision: "allow" | "ask" | "deny";
  step: CursorStep;
  /** The deciding token (for a compound allow: the first segment's; the trace names each). */
  rule: string | null;
  scope: CursorScope | null;
  store: string | null;
  reason: string;
  /** The docs do not settle this call: the cockpit decided it by its conservative reading (see `inferredWhy`). */
  inferred: boolean;
  inferredWhy: string[];
  trace: CursorTraceEntry[];
  warnings: string[];
  /** The call touches a protected folder: only a person may allow it, once (never remembered). */
  protected?: true;
}

interface Effective {
  deny: CursorRule[];
  allow: CursorRule[];
  invalid: CursorStoreView[];
  trace: CursorTraceEntry[];
  /** Allow entries of outer stores set aside by the merge reading: a decision that hinges on them is inferred. */
  shadowed: CursorRule[];
}

/**
 * Which entries apply. Deny: every entry of every readable store. Allow: only the deepest store that has a
 * `permissions.allow` list, and only if it is plain JSON — Cursor's docs do not say whether a deeper file's list
 * replaces or extends an outer one, so the cockpit counts only what survives both readings.
 */
export function effectiveRules(stores: CursorStoreView[]): Effective {
  const trace: CursorTraceEntry[] = [];
  const valid = stores.filter((s) => s.valid);
  const invalid = stores.filter((s) => !s.valid);
  for (const s of invalid)
    trace.push({
      step: "merge",
      outcome: "skipped",
      why: `${s.path} is invalid (${s.error}): nothing is allowed while it is`,
    });
  const deny = valid.flatMap((s) => s.rules.filter((r) => r.action === "deny" && r.token));
  const owner = [...valid].reverse().find((s) => s.definesAllow);
  const shadowed: CursorRule[] = [];
  let allow: CursorRule[] = [];
  for (const s of valid) {
    const list = s.rules.filter((r) => r.action === "allow" && r.token);
    if (!list.length) continue;
    if (s !== owner) {
      shadowed.push(...list);
      trace.push({
        step: "merge",
        outcome: "skipped",
        why: `allow entries of ${s.path} not counted: the deeper ${owner?.path} has its own permissions.allow (Cursor's merge of lists is undocumented)`,
      });
    } else if (!s.strictJson) {
      shadowed.push(...list);
      trace.push({
        step: "merge",
        outcome: "skipped",
        why: `allow entries of ${s.path} not counted: the file is not plain JSON`,
      });
    } else allow = list;
  }
  return { deny, allow, invalid, trace, shadowed };
}

const effective = new WeakMap<CursorStoreView[], Effective>();
/** `effectiveRules`, computed once per stores array (a snapshot decides many calls with the same array). */
function effectiveOf(stores: CursorStoreView[]): Effective {
  let e = effective.get(stores);
  if (!e) effective.set(stores, (e = effectiveRules(stores)));
  return e;
}

class Builder {
  readonly trace: CursorTraceEntry[];
  readonly inferred = new Set<string>();
  readonly warnings = new Set<string>();
  constructor(base: CursorTraceEntry[]) {
    this.trace = [...base];
  }
  infer(why: string) {
    this.inferred.add(why);
  }
  done(
    decision: CursorDecision["decision"],
    step: CursorStep,
    reason: string,
    rule: CursorRule | null = null,
    isProtected = false,
  ): CursorDecision {
    this.trace.push({ step, outcome: "decided", why: reason });
    return {
      decision,
      step,
      rule: rule?.text ?? null,
      scope: rule?.scope ?? null,
      store: rule?.store ?? null,
      reason,
      inferred: this.inferred.size > 0,
      inferredWhy: [...this.inferred],
      trace: this.trace,
      warnings: [...this.warnings],
      ...(isProtected ? { protected: true as const } : {}),
    };
  }
}

/** A subject one token kind is matched against, with a label for the trace. */
type Subject =
  | { kind: "Shell"; part: ShellPart; label: string }
  | { kind: "Read" | "Write"; abs: string; label: string }
  | { kind: "WebFetch"; host: string; label: string }
  | { kind: "Mcp"; server: string | null; name: string; label: string };

function test(rule: CursorRule, s: Subject, env: PathEnv, forDeny: boolean): Match {
  const t = rule.token!;
  if (t.kind !== s.kind) return { matched: false };
  switch (s.kind) {
    case "Shell":
      return matchShellPart(t as Extract<typeof t, { kind: "Shell" }>, s.part, forDeny);
    case "Read":
    case "Write":
      return matchPath(t as Extract<typeof t, { kind: "Read" | "Write" }>, s.abs, env, forDeny);
    case "WebFetch":
      return matchDomain(t as Extract<typeof t, { kind: "WebFetch" }>, s.host, forDeny);
    case "Mcp":
      return matchMcp(t as Extract<typeof t, { kind: "Mcp" }>, s.server, s.name, forDeny);
  }
}

/**
 * Candidate rules for a subject, in file order: rules of the subject's kind, and for shell commands only the tokens
 * whose literal base could name this command (wildcard and multi-word bases are always tried).
 */
class RuleIndex {
  private readonly byKind = new Map<string, CursorRule[]>();
  private readonly shellByBase = new Map<string, CursorRule[]>();
  private readonly shellOther: CursorRule[] = [];
  private readonly order = new Map<CursorRule, number>();
  constructor(rules: CursorRule[]) {
    rules.forEach((r, k) => {
      this.order.set(r, k);
      const t = r.token!;
      if (t.kind !== "Shell") return push(this.byKind, t.kind, r);
      if (/[*?\s]/.test(t.base)) this.shellOther.push(r);
      else push(this.shellByBase, t.base, r);
    });
  }
  candidates(s: Subject, forDeny: boolean): CursorRule[] {
    if (s.kind !== "Shell") return this.byKind.get(s.kind) ?? [];
    const names = new Set<string>();
    const { argv, core } = s.part;
    if (argv[0]) names.add(argv[0]);
    if (forDeny) for (const w of [core[0], argv[0], core[0]]) if (w) names.add(w).add(w.slice(w.lastIndexOf("/") + 1));
    const out = [...this.shellOther];
    for (const n of names) out.push(...(this.shellByBase.get(n) ?? []));
    return names.size > 1 || this.shellOther.length
      ? [...new Set(out)].sort((a, b) => this.order.get(a)! - this.order.get(b)!)
      : out;
  }
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

const indexes = new WeakMap<CursorRule[], RuleIndex>();
function indexOf(rules: CursorRule[]): RuleIndex {
  let ix = indexes.get(rules);
  if (!ix) indexes.set(rules, (ix = new RuleIndex(rules)));
  return ix;
}

function first(
  rules: CursorRule[],
  s: Subject,
  env: PathEnv,
  forDeny: boolean,
): { rule: CursorRule; match: Extract<Match, { matched: true }> } | null {
  let loose: { rule: CursorRule; match: Extract<Match, { matched: true }> } | null = null;
  for (const rule of indexOf(rules).candidates(s, forDeny)) {
    const m = test(rule, s, env, forDeny);
    if (!m.matched) continue;
    if (!m.inferred) return { rule, match: m };
    loose ??= { rule, match: m };
  }
  return loose;
}

/** Absolute path of a call argument: `~` is home, relative paths start at Cursor's cwd. */
export function resolvePath(p: string, cwd: string, home: string): string {
  return resolveCallPath(p, { workspaceRoot: cwd, cwd, home });
}

/** The settings family's dialect: the shared engine reads the facts of a Cursor call as it reads any settings agent's. */
const FACTS_DIALECT = settingsDialect(info.id, info.label);

/** The protected folder the call reads, writes or names (the shared engine's check, on Claude-style facts). */
function protectedFolder(call: CursorCall, ctx: CursorContext, cwd: string): string | null {
  if (!ctx.protectedPaths?.length) return null;
  const tool: ToolCall =
    call.tool === "Shell"
      ? { tool: "Bash", input: { command: call.command } }
      : call.tool === "Read" || call.tool === "Write"
        ? { tool: call.tool, input: { file_path: call.path } }
        : { tool: call.tool, input: {} };
  const pctx: PolicyContext = {
    dialect: FACTS_DIALECT,
    mode: "default",
    workspaceRoot: ctx.workspaceRoot,
    cwd,
    home: ctx.home,
    rules: [],
    shell: ctx.shell,
    protectedPaths: ctx.protectedPaths,
    resolveSymlink: ctx.resolveSymlink,
  };
  return protectedHit(callFacts(tool, pctx), pctx);
}

const SHELL_OPEN =
  "the docs define Shell() by the command's first token only; this command has several parts, substitutions, payloads or redirections, so each was checked on its own";

/** Decide one Cursor call against its stores. */
export function decideCursor(call: CursorCall, ctx: CursorContext): CursorDecision {
  const eff = effectiveOf(ctx.stores);
  const b = new Builder(eff.trace);
  const mode = ctx.mode ?? "default";
  const cwd = call.tool === "Shell" && call.cwd ? call.cwd : (ctx.cwd ?? ctx.workspaceRoot);
  const env: PathEnv = { workspaceRoot: ctx.workspaceRoot, home: ctx.home };
  if (mode === "auto-review")
    b.trace.push({
      step: "mode",
      outcome: "passed",
      why: "auto-review: Cursor's classifier may run what no entry allows; the cockpit cannot model it and asks instead (stricter)",
    });

  // 1. Subjects: what deny must not cover and what allow must cover entirely.
  let denySubjects: Subject[];
  let allowSubjects: Subject[];
  let analysis: ShellAnalysis | null = null;
  switch (call.tool) {
    case "Shell": {
      analysis = analyzeShell(call.command, ctx.shell);
      const parts = analysis.parts.map((part, k) => ({
        kind: "Shell" as const,
        part,
        label: `segment ${k + 1} \`${part.text}\``,
      }));
      const writes = analysis.writes.map((w) => ({
        kind: "Write" as const,
        abs: resolvePath(w, cwd, ctx.home),
        label: `redirection to ${w}`,
      }));
      const firstWord = call.command.trim().split(/\s+/)[0] ?? "";
      const raw: Subject = {
        kind: "Shell",
        part: {
          text: call.command,
          argv: [firstWord],
          core: [firstWord],
          assignments: [],
          wrappers: [],
          writes: [],
          origin: "top",
          dynamic: true,
        },
        label: `first token \`${firstWord}\``,
      };
      denySubjects = [raw, ...parts, ...writes];
      allowSubjects = [...parts, ...writes];
      const simple =
        analysis.parseable &&
        analysis.allowable &&
        analysis.parts.length === 1 &&
        analysis.parts[0].origin === "top" &&
        analysis.writes.length === 0;
      if (!simple) b.infer(SHELL_OPEN);
      if (analysis.dangerous) b.warnings.add("dangerous command");
      break;
    }
    case "Read":
    case "Write": {
      const abs = resolvePath(call.path, cwd, ctx.home);
      denySubjects = allowSubjects = [{ kind: call.tool, abs, label: abs }];
      break;
    }
    case "WebFetch": {
      const host = hostOf(call.url);
      if (!host) return b.done("ask", "fallback", `${call.url} has no host to match WebFetch() entries against`);
      denySubjects = allowSubjects = [{ kind: "WebFetch", host, label: host }];
      break;
    }
    case "Mcp": {
      if (call.server === null)
        b.infer("the call does not name its MCP server: deny entries match any server, allow needs Mcp(*:tool)");
      denySubjects = allowSubjects = [
        { kind: "Mcp", server: call.server, name: call.name, label: `${call.server ?? "?"}:${call.name}` },
      ];
      break;
    }
  }

  // 2. Deny beats allow: any subject any deny entry covers.
  for (const s of denySubjects) {
    const hit = first(eff.deny, s, env, true);
    if (!hit) continue;
    if (hit.match.inferred) b.infer(`deny ${hit.rule.text}: ${hit.match.inferred}`);
    return b.done("deny", "deny-rule", `${hit.rule.text} denies ${s.label}`, hit.rule);
  }
  b.trace.push({
    step: "deny-rule",
    outcome: "passed",
    why: eff.deny.length ? "no deny entry covers the call" : "no deny entries",
  });

  // 2b. The cockpit's data folder: a person, once — before any mode or entry could allow it.
  const guarded = protectedFolder(call, ctx, cwd);
  if (guarded) {
    b.warnings.add("protected path");
    return b.done(
      "ask",
      "protected-path",
      `names the cockpit's protected folder ${guarded}: only a person may allow it, once`,
      null,
      true,
    );
  }

  // 3. --force / unrestricted: everything not denied runs (shell commands and file writes).
  if ((mode === "force" || mode === "unrestricted") && (call.tool === "Shell" || call.tool === "Write"))
    return b.done("allow", "yolo", `${mode}: allowed because no deny entry covers it`);

  // 4. A store that cannot be read may hold a deny: never allow while it is listed.
  if (eff.invalid.length)
    return b.done(
      "ask",
      "invalid-store",
      `${eff.invalid.map((s) => s.path).join(", ")} cannot be read: the cockpit allows nothing until it is fixed`,
    );

  if (analysis && !(analysis.parseable && analysis.allowable)) {
    b.infer(`the command is not fully understood (${analysis.unsupported.join(", ") || "syntax error"}): it asks`);
    return b.done(
      "ask",
      "fallback",
      `unsupported shell syntax (${analysis.unsupported.join(", ") || "syntax error"}): never allowed by an entry`,
    );
  }

  // 5. Allow: every subject needs an allow entry.
  let decider: CursorRule | null = null;
  for (const s of allowSubjects) {
    const hit = first(eff.allow, s, env, false);
    if (!hit) {
      const outer = first(eff.shadowed, s, env, false);
      if (outer)
        b.infer(`${outer.rule.text} in ${outer.rule.store} would allow ${s.label} if Cursor extends outer allow lists`);
      return b.done("ask", "fallback", fallbackReason(call, s, allowSubjects.length > 1));
    }
    if (allowSubjects.length > 1)
      b.trace.push({ step: "segment", outcome: "passed", why: `${hit.rule.text} allows ${s.label}` });
    decider ??= hit.rule;
  }
  if (!decider) return b.done("ask", "fallback", "nothing to allow");
  return b.done(
    "allow",
    "allow-rule",
    allowSubjects.length > 1
      ? `every part is allowed (first by ${decider.text})`
      : `${decider.text} allows ${allowSubjects[0].label}`,
    decider,
  );
}

function fallbackReason(call: CursorCall, s: Subject, several: boolean): string {
  const what = several ? `${s.label} of the command` : s.label;
  switch (call.tool) {
    case "Read":
      return `no Read() entry allows ${what}; Cursor itself reads without a prompt unless a deny covers the file, the cockpit asks (stricter)`;
    case "WebFetch":
      return `no WebFetch() entry allows ${what}: "Without an allowlist entry, each fetch prompts for approval"`;
    default:
      return `no allow entry covers ${what}: Cursor prompts`;
  }
}

export type { CursorAction };
