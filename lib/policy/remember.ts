import { callFacts } from "./call";
import { decide } from "./decide";
import { formatMevedelRule } from "./mevedel-rules";
import { isInside } from "./paths";
import { displayTool, formatRule } from "./rule-parse";
import { ARBITRARY_CODE, isDangerousPart, isReadOnlyPart } from "./shell/classify";
import type { Agent, PolicyContext, Rule, Specifier, ToolCall } from "./types";

const NONE = { session: [] as string[], workspace: [] as string[] };

function text(agent: Agent, tool: string, specifier: Specifier | null): string {
  if (agent === "mevedel") return formatMevedelRule({ tool, specifier, action: "allow" } as Pick<Rule, "tool" | "specifier" | "action">);
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
  if (d.safetyCheck || d.decision !== "ask") return NONE;
  const f = callFacts(call, ctx);
  const agent = ctx.agent;
  const out: string[] = [];
  if (f.shell) {
    const a = f.shell;
    if (!a.allowable) return NONE; // an unparsable command is never allowed by a rule
    const dialect = agent === "claude-code" ? "exact" : agent === "mevedel" ? "glob" : "prefix";
    for (const p of a.parts) {
      if (p.origin === "payload" || isReadOnlyPart(p)) continue;
      const base = p.argv[0] ?? "";
      const exact = ARBITRARY_CODE.has(base) || isDangerousPart(p) || p.assignments.length > 0 || p.wrappers.length > 0 || agent === "mevedel";
      let pattern: string;
      if (exact) {
        // `*` in a stored pattern would widen it; such a command cannot be remembered exactly.
        if (p.text.includes("*")) return NONE;
        pattern = p.text;
      } else pattern = `${base} *`;
      const r = agent === "commandcode" && !exact ? `Shell(${base}:*)` : text(agent, "Shell", { kind: "shell", pattern, dialect });
      if (!out.includes(r)) out.push(r);
    }
  } else if (f.kind === "edit") {
    if (f.paths.length === 0) return NONE;
    for (const p of f.paths) {
      const spec = isInside(p, ctx.workspaceRoot) ? `/${p.slice(ctx.workspaceRoot.replace(/\/+$/, "").length + 1)}` : `/${p}`;
      if (/[*?[\]{}]/.test(spec)) return NONE;
      out.push(agent === "mevedel" ? text(agent, displayTool("ApplyPatch", agent), { kind: "path", pattern: p }) : text(agent, "Edit", { kind: "path", pattern: spec }));
    }
  } else if (f.kind === "web-fetch" && f.host) {
    out.push(text(agent, "WebFetch", { kind: "domain", pattern: f.host }));
  } else {
    out.push(agent === "mevedel" ? text(agent, call.tool, null) : call.tool);
  }
  return { session: out, workspace: out };
}
