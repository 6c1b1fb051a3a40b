import { isToolWideText } from "./tool-wide";
import { callFacts } from "./call";
import { ccShell } from "./claude-code/bash";
import { decide } from "./decide";
import { formatMevedelRule } from "./mevedel-rules";
import { isInside } from "./paths";
import { displayTool, formatRule } from "./rule-parse";
import { ARBITRARY_CODE, isDangerousPart, isReadOnlyPart } from "./shell/classify";
import type { Agent, PolicyContext, Rule, Specifier, ToolCall } from "./types";

const NONE = { session: [] as string[], workspace: [] as string[] };

function text(agent: Agent, tool: string, specifier: Specifier | null): string {
  if (agent === "mevedel")
    return formatMevedelRule({ tool, specifier, action: "allow" } as Pick<Rule, "tool" | "specifier" | "action">);
  return formatRule({ tool, specifier }, agent);
}

/**
 * Rule texts that "allow for session" / "always allow" would store for this call. Shell: one rule per
 * non-read-only base (`Shell(git:*)`), the exact command for bases that run arbitrary code or dangerous
 * commands; MCP/other: the tool name; file edits: the file, anchored at the workspace root. Empty when
 * the prompt is a safety check (those approvals are never remembered) or nothing exact can be written.
 */
export function rememberRules(call: ToolCall, ctx: PolicyContext): { session: string[]; workspace: string[] } {
  const d = decide(call, ctx);
  if (d.safetyCheck || d.protected || d.decision !== "ask") return NONE;
  // Claude Code under allowManagedPermissionRulesOnly "hides the always-allow choices … and stops saving new rules".
  if (ctx.managedRulesOnly) return NONE;
  const f = callFacts(call, ctx);
  // A shell call without a command, a fetch without a host, a nameless tool: the only rule would be tool-wide.
  if (f.kind === "shell" && !f.shell) return NONE;
  if (f.kind === "web-fetch" && !f.host) return NONE;
  if (!String(call.tool ?? "").trim()) return NONE;
  const agent = ctx.agent;
  const out: string[] = [];
  if (f.shell) {
    const a = f.shell;
    if (!a.allowable) return NONE; // an unparsable command is never allowed by a rule
    const dialect = agent === "claude-code" ? "exact" : agent === "mevedel" ? "glob" : "prefix";
    // Claude Code: a rule is matched against the command after its documented wrappers and safe assignments are
    // stripped, and a subcommand in its read-only set needs no rule (lib/policy/claude-code/bash.ts).
    const claude = agent === "claude-code" ? new Map(ccShell(f, ctx).parts.map((cp) => [cp.part, cp])) : null;
    for (const p of a.parts) {
      if (p.origin === "payload") continue;
      const cp = claude?.get(p);
      if (cp ? cp.readOnly && cp.outside.length === 0 : isReadOnlyPart(p)) continue;
      // An allow rule never matches past an unsafe assignment: nothing can be remembered for it.
      if (cp?.view.blocked || (cp && !cp.view.text)) return NONE;
      const argv = cp ? cp.view.argv : p.argv;
      const body = cp ? cp.view.text : p.text;
      const base = argv[0] ?? "";
      const exact =
        ARBITRARY_CODE.has(base) ||
        isDangerousPart(p) ||
        (!cp && (p.assignments.length > 0 || p.wrappers.length > 0)) ||
        (cp !== undefined && cp.view.execWrapper !== null) ||
        agent === "mevedel";
      const prefix = exact ? null : rememberedPrefix(argv);
      let pattern: string;
      if (exact || prefix === null) {
        // `*` in a stored pattern would widen it; such a command cannot be remembered exactly.
        if (body.includes("*")) return NONE;
        pattern = body;
      } else pattern = `${prefix} *`;
      const r =
        agent === "commandcode" && prefix !== null
          ? `Shell(${prefix}:*)`
          : text(agent, "Shell", { kind: "shell", pattern, dialect });
      if (!out.includes(r)) out.push(r);
    }
  } else if (f.kind === "edit") {
    if (f.paths.length === 0) return NONE;
    // `/x` anchors at the workspace root; Claude Code's local settings and session rules anchor it at the
    // session's working directory (permissions: "Local settings rules anchor at the session's primary working directory").
    const anchor = agent === "claude-code" ? f.env.cwd : ctx.workspaceRoot;
    for (const p of f.paths) {
      const spec = isInside(p, anchor) && p !== anchor ? `/${p.slice(anchor.replace(/\/+$/, "").length + 1)}` : `/${p}`;
      if (/[*?[\]{}]/.test(spec)) return NONE;
      out.push(
        agent === "mevedel"
          ? text(agent, displayTool("ApplyPatch", agent), { kind: "path", pattern: p })
          : text(agent, "Edit", { kind: "path", pattern: spec }),
      );
    }
  } else if (f.kind === "web-fetch" && f.host) {
    out.push(text(agent, "WebFetch", { kind: "domain", pattern: f.host }));
  } else {
    out.push(agent === "mevedel" ? text(agent, call.tool, null) : call.tool);
  }
  // Never propose a rule that matches every input of its tool (the engine's own predicate).
  const narrow = out.filter((r) => !isToolWideText(r, ctx.agent, ctx.shell ?? null));
  return { session: narrow, workspace: narrow };
}

/**
 * Package managers and build tools run project-defined code, so approving `npm run test` must not
 * remember every `npm` command: keep the sub-command (and the script name of `run`/`exec`).
 * Returns null when the command has no sub-command to anchor on (remember it exactly).
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

export function rememberedPrefix(argv: string[]): string | null {
  const base = argv[0] ?? "";
  if (!SCRIPT_RUNNERS.has(base)) return base || null;
  const words = [base];
  for (const arg of argv.slice(1)) {
    if (arg.startsWith("-") || /[*?[\]{}$`'"\\]/.test(arg)) break;
    words.push(arg);
    if (words.length === 2 && !SCRIPT_VERBS.has(arg)) break;
    if (words.length === 3) break;
  }
  return words.length > 1 ? words.join(" ") : null;
}
