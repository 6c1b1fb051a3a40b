import { isToolWideText } from "./tool-wide";
import { callFacts } from "./call";
import { ccShell } from "./claude-code/bash";
import { decide } from "./decide";
import { formatMevedelRule, parseRuleText } from "./mevedel-rules";
import { isNarrower } from "./narrow";
import { isInside } from "./paths";
import { displayTool, formatRule } from "./rule-parse";
import { ARBITRARY_CODE, isDangerousPart, isReadOnlyPart } from "./shell/classify";
import type { Dialect, PolicyContext, Rule, ShellPart, Specifier, ToolCall } from "./types";

const NONE = { session: [] as string[], workspace: [] as string[] };

/** An allow rule's text in the dialect's form. */
function text(dialect: Dialect, tool: string, specifier: Specifier | null): string {
  if (dialect.rules.form === "plist")
    return formatMevedelRule(
      { tool, specifier, action: "allow" } as Pick<Rule, "tool" | "specifier" | "action">,
      dialect,
    );
  return formatRule({ tool, specifier }, dialect);
}

/** How far a remembered rule reaches, narrowest first. */
export type RememberLevel = "exact" | "subcommand" | "program" | "folder" | "suggested";

/** One way to remember a call: the rules it stores (one per sub-command or file) and what it covers, in words. */
export interface RememberChoice {
  level: RememberLevel;
  rules: string[];
  /** "this exact command", "kubectl delete with any arguments", "any kubectl command", "any file under src/". */
  label: string;
  /** The agent itself suggested these rules (Claude Code's `permission_suggestions`). */
  suggested?: true;
}

/**
 * What "allow for session" / "always allow" may store for this call, built from the request itself and
 * narrowest first: the exact command (or file, domain, tool); the sub-command with any arguments
 * (`kubectl delete *`); the program (`kubectl *`); for edits, the file's folder. A part that runs
 * arbitrary code (shells, interpreters, `curl`, `bash -c`, pipe-to-shell), a dangerous command, an env
 * prefix or a wrapper is never generalised: every level keeps it exact. Empty when the prompt is a safety
 * check (never remembered) or nothing exact can be written. Lint verdicts are added by lib/hygiene.
 */
export function rememberChoices(call: ToolCall, ctx: PolicyContext): RememberChoice[] {
  const d = decide(call, ctx);
  if (d.safetyCheck || d.protected || d.decision !== "ask") return [];
  // Claude Code under allowManagedPermissionRulesOnly "hides the always-allow choices … and stops saving new rules".
  if (ctx.managedRulesOnly) return [];
  const f = callFacts(call, ctx);
  // A shell call without a command, a fetch without a host, a nameless tool: the only rule would be tool-wide.
  if (f.kind === "shell" && !f.shell) return [];
  if (f.kind === "web-fetch" && !f.host) return [];
  if (!String(call.tool ?? "").trim()) return [];
  const dialect = ctx.dialect;
  let levels: { level: RememberLevel; rules: string[]; label: string }[];
  if (f.shell) {
    if (!f.shell.allowable) return []; // an unparsable command is never allowed by a rule
    const parts = shellLevels(f, ctx);
    if (!parts) return [];
    levels = [
      { level: "exact", rules: parts.map((p) => p.exact), label: dialect.remember.exactShell },
      {
        level: "subcommand",
        rules: parts.map((p) => p.subcommand?.rule ?? p.exact),
        label: `${words(parts.map((p) => p.subcommand?.words))} with any arguments`,
      },
      {
        level: "program",
        rules: parts.map((p) => p.program?.rule ?? p.subcommand?.rule ?? p.exact),
        label: `any ${words(parts.map((p) => p.program?.words))} command`,
      },
    ];
  } else if (f.kind === "edit") {
    if (f.paths.length === 0) return [];
    // `/x` anchors at the workspace root; Claude Code's local settings and session rules anchor it at the
    // session's working directory (permissions: "Local settings rules anchor at the session's primary working directory").
    const anchor = dialect.remember.anchor === "cwd" ? f.env.cwd : ctx.workspaceRoot;
    const files = f.paths.map((p) => editTarget(p, ctx, anchor));
    if (files.some((t) => t === null)) return [];
    const t = files as EditTarget[];
    levels = [
      { level: "exact", rules: t.map((x) => x.exact), label: t.length === 1 ? "this file" : "these files" },
      {
        level: "folder",
        rules: t.map((x) => x.folder?.rule ?? x.exact),
        label: `any file under ${[...new Set(t.flatMap((x) => (x.folder ? [x.folder.dir] : [])))].join(", ")}`,
      },
    ];
  } else if (f.kind === "web-fetch" && f.host) {
    levels = [
      { level: "exact", rules: [text(dialect, "WebFetch", { kind: "domain", pattern: f.host })], label: `${f.host}` },
    ];
  } else {
    levels = [
      {
        level: "exact",
        rules: [dialect.rules.form === "plist" ? text(dialect, call.tool, null) : call.tool],
        label: "this tool",
      },
    ];
  }
  // Each level only when it reaches further than the one before; never a rule that matches every input of its tool.
  const out: RememberChoice[] = [];
  for (const l of levels) {
    const rules = [...new Set(l.rules)];
    const prev = out[out.length - 1];
    if (prev && prev.rules.join("\n") === rules.join("\n")) continue;
    if (rules.some((r) => isToolWideText(r, dialect, ctx.shell ?? null))) continue;
    out.push({ level: l.level, rules, label: l.label });
  }
  return out;
}

/**
 * Rule texts that "allow for session" / "always allow" store when the person picks nothing: the narrowest
 * choice (see `rememberChoices`).
 */
export function rememberRules(call: ToolCall, ctx: PolicyContext): { session: string[]; workspace: string[] } {
  const first = rememberChoices(call, ctx)[0];
  return first ? { session: first.rules, workspace: first.rules } : NONE;
}

/**
 * Rules the agent itself suggested (Claude Code's `permission_suggestions`, one list per suggestion), kept only
 * where they stay inside what the chooser built from the request: every rule parses, together they allow this
 * very call, and each equals or is provably narrower than a rule of the widest choice (so `Bash(bash)` for
 * `curl … | bash` never gets in). A suggestion equal to a choice marks that choice; the others are added after
 * the choice they are narrower than. Lint verdicts still apply to every choice (lib/hygiene).
 */
export function withSuggestions(
  call: ToolCall,
  ctx: PolicyContext,
  choices: RememberChoice[],
  suggestions: readonly (readonly string[])[],
): RememberChoice[] {
  const widest = choices[choices.length - 1];
  if (!widest || suggestions.length === 0) return choices;
  const out = choices.map((c) => ({ ...c }));
  const source = { scope: "workspace" as const, store: `${ctx.workspaceRoot}/.suggested`, base: ctx.workspaceRoot };
  const parse = (t: string) => parseRuleText(t, "allow", { dialect: ctx.dialect, source });
  const bounds = widest.rules.map((t) => parse(t)).flatMap((r) => (r.ok ? [r.value] : []));
  for (const list of suggestions) {
    const rules = [...new Set(list.map((t) => t.trim()).filter(Boolean))];
    if (rules.length === 0) continue;
    const same = out.find((c) => c.rules.length === rules.length && c.rules.every((r) => rules.includes(r)));
    if (same) {
      same.suggested = true;
      continue;
    }
    const parsed = rules.map(parse);
    if (!parsed.every((r) => r.ok)) continue;
    const values = parsed.map((r) => (r as { ok: true; value: Rule }).value);
    const inside = values.every(
      (r) =>
        widest.rules.includes(r.text) ||
        bounds.some(
          (b) =>
            isNarrower({ kind: "rule", action: "allow", rule: b }, { kind: "rule", action: "allow", rule: r }).proved,
        ),
    );
    if (!inside || values.some((r) => isToolWideText(r.text, ctx.dialect, ctx.shell ?? null))) continue;
    const d = decide(call, { ...ctx, mode: "default", rules: [...ctx.rules, ...values] });
    if (d.decision !== "allow" || d.step !== "allow-rule") continue;
    if (out.some((c) => c.level === "suggested" && c.rules.join("\n") === rules.join("\n"))) continue;
    out.push({ level: "suggested", rules, label: "as the agent suggested", suggested: true });
  }
  return out;
}

const words = (list: (string | undefined)[]) => [...new Set(list.filter(Boolean))].join(", ");

interface PartLevels {
  exact: string;
  subcommand: { rule: string; words: string } | null;
  program: { rule: string; words: string } | null;
}

/** Per non-read-only part of a command: its exact rule and, unless it must stay exact, its wider ones. */
function shellLevels(f: ReturnType<typeof callFacts>, ctx: PolicyContext): PartLevels[] | null {
  const d = ctx.dialect;
  const shell = d.rules.shell;
  const rule = (pattern: string) => text(d, "Shell", { kind: "shell", pattern, dialect: shell });
  const wide = (prefix: string) =>
    d.remember.wideShell === "colon-star"
      ? `${d.rules.shellTool}(${prefix}:*)`
      : text(d, "Shell", { kind: "shell", pattern: `${prefix} *`, dialect: shell });
  // Claude Code: a rule is matched against the command after its documented wrappers and safe assignments are
  // stripped, and a subcommand in its read-only set needs no rule (lib/policy/claude-code/bash.ts).
  const claude = d.matching.strippedAllowView ? new Map(ccShell(f, ctx).parts.map((cp) => [cp.part, cp])) : null;
  const out: PartLevels[] = [];
  for (const p of f.shell!.parts) {
    if (p.origin === "payload") continue;
    const cp = claude?.get(p);
    if (cp ? cp.readOnly && cp.outside.length === 0 : isReadOnlyPart(p)) continue;
    // An allow rule never matches past an unsafe assignment: nothing can be remembered for it.
    if (cp?.view.blocked || (cp && !cp.view.text)) return null;
    const argv = cp ? cp.view.argv : p.argv;
    const body = cp ? cp.view.text : p.text;
    // `*` in a stored pattern would widen it; such a command cannot be remembered exactly.
    if (body.includes("*")) return null;
    const base = argv[0] ?? "";
    const exactOnly =
      ARBITRARY_CODE.has(base) ||
      isDangerousPart(p) ||
      (!cp && (p.assignments.length > 0 || p.wrappers.length > 0)) ||
      (cp !== undefined && cp.view.execWrapper !== null) ||
      !base;
    const sub = exactOnly ? null : subcommandOf(argv);
    const levels: PartLevels = {
      exact: rule(body),
      subcommand: sub ? { rule: wide(sub), words: sub } : null,
      program: exactOnly || SCRIPT_RUNNERS.has(base) ? null : { rule: wide(base), words: base },
    };
    if (!out.some((o) => o.exact === levels.exact)) out.push(levels);
  }
  return out;
}

interface EditTarget {
  exact: string;
  folder: { rule: string; dir: string } | null;
}

function editTarget(p: string, ctx: PolicyContext, anchor: string): EditTarget | null {
  const dialect = ctx.dialect;
  const inside = isInside(p, anchor) && p !== anchor;
  const rel = inside ? p.slice(anchor.replace(/\/+$/, "").length + 1) : p;
  const spec = inside ? `/${rel}` : `/${p}`;
  if (/[*?[\]{}]/.test(spec)) return null;
  const absolute = dialect.remember.editsAsAbsolute;
  if (absolute)
    return { exact: text(dialect, displayTool(absolute, dialect), { kind: "path", pattern: p }), folder: null };
  const dir = rel.includes("/") ? rel.slice(0, rel.lastIndexOf("/")) : "";
  return {
    exact: text(dialect, "Edit", { kind: "path", pattern: spec }),
    // A folder inside the workspace; never the workspace root or a folder outside it.
    folder:
      inside && dir ? { rule: text(dialect, "Edit", { kind: "path", pattern: `/${dir}/**` }), dir: `${dir}/` } : null,
  };
}

/**
 * Package managers and build tools run project-defined code, so they are never remembered as the bare
 * program (`npm *`), and their `run`/`exec` sub-command keeps the script name (`npm run test`).
 */
const SCRIPT_RUNNERS = new Set([
  "npm",
  "pnpm",
  "yarn",
  "make",
  "cargo",
  "go",
  "mvn",
  "gradle",
  "./gradlew",
  "composer",
  "poetry",
  "uv",
  "pip",
  "pip3",
  "rake",
  "bundle",
  "dotnet",
  "just",
]);
const SCRIPT_VERBS = new Set(["run", "run-script", "exec", "x", "dlx", "test"]);

/**
 * The program and its sub-command (`kubectl delete`, `git push`); for a package manager's `run`/`exec`, the
 * script name too (`npm run test`). Null when the word after the program is a flag, a path, a quoted or
 * expanded word, or missing.
 */
export function subcommandOf(argv: string[]): string | null {
  const base = argv[0] ?? "";
  const sub = argv[1] ?? "";
  if (!base || !/^[a-z][a-z0-9-]*$/.test(sub)) return null;
  const script = argv[2] ?? "";
  if (SCRIPT_RUNNERS.has(base) && SCRIPT_VERBS.has(sub) && /^[A-Za-z0-9][\w.:@-]*$/.test(script))
    return `${base} ${sub} ${script}`;
  return `${base} ${sub}`;
}
