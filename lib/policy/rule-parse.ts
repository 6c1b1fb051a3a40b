import { canonicalRuleTool, SPECIFIER_FIELDS, toolKind } from "./tools";
import type { Action, Dialect, ParseResult, Rule, RuleSource, ShellDialect, Specifier } from "./types";

const RULE_RE = /^([^()\s]+)(?:\(([\s\S]*)\))?$/;
const TOOL_NAME_RE = /^[A-Za-z0-9_.*-]+$/;
const PARAM_RE = /^([A-Za-z_][A-Za-z0-9_]*):([\s\S]+)$/;
const SPACED_PARAM_RE = /^([A-Za-z_][A-Za-z0-9_]*)\s*:\s*([\s\S]+)$/;
// Shell parameters we recognise; other `word:rest` specifiers are commands (`Shell(git:*)`, `Shell(docker run a:b)`).
const SHELL_PARAMS = new Set([
  "run_in_background",
  "timeout",
  "description",
  "sandbox",
  "dangerouslydisablesandbox",
  "shell_id",
]);
const PATH_PARAMS = new Set([
  "offset",
  "limit",
  "replace_all",
  "old_string",
  "new_string",
  "content",
  "pattern",
  "glob",
  "type",
  "output_mode",
  "edits",
  "cell_id",
  "new_source",
]);
const PATH_TOOLS = new Set([
  "Read",
  "Edit",
  "Write",
  "Glob",
  "Grep",
  "MultiEdit",
  "NotebookEdit",
  "ApplyPatch",
  "read_file",
  "read_directory",
  "read_multiple_files",
  "glob",
  "grep",
  "edit_file",
  "write_file",
]);

/** Shell specifier dialect of an agent (see docs/policy.md, "Shell patterns"). */
export function shellDialect(dialect: Dialect): ShellDialect {
  return dialect.rules.shell;
}

const fail = (error: string): ParseResult<never> => ({ ok: false, error });

/** Parse `Tool`, `Tool(specifier)`, `Tool(param:value)` or an MCP name into a canonical rule. Never throws. */
export function parseRule(
  text: string,
  action: Action,
  opts: { dialect: Dialect; source: RuleSource },
): ParseResult<Rule> {
  if (typeof text !== "string") return fail("rule must be a string");
  const trimmed = text.trim();
  if (!trimmed) return fail("empty rule");
  const { dialect } = opts;
  if (dialect.rules.form === "plist" && trimmed.startsWith("(")) {
    return fail(`${dialect.id} plist rules go through parseMevedelRuleText`);
  }
  const m = RULE_RE.exec(trimmed);
  if (!m) return fail(`malformed rule "${trimmed}": expected Tool or Tool(specifier)`);
  const rawTool = m[1];
  if (!TOOL_NAME_RE.test(rawTool)) return fail(`invalid tool name "${rawTool}"`);
  const raw = m[2];
  const isGlob = rawTool.includes("*");
  const tool = isGlob ? rawTool : canonicalRuleTool(rawTool);
  // Claude Code: "When Claude Code loads a settings file, it skips any `mcp__` rule that has parentheses" (permissions).
  if (dialect.rules.mcpTakesNoParens && raw !== undefined && /^mcp__/i.test(rawTool))
    return fail(`${dialect.label} skips ${rawTool}(…): MCP rules take no parentheses in settings files`);
  const spec = raw === undefined || raw.trim() === "" || raw.trim() === "*" ? null : raw;
  const base = { action, tool, text: trimmed, source: opts.source, agent: dialect.id };

  if (isGlob) {
    if (spec !== null) return fail(`tool pattern "${rawTool}" takes no specifier`);
    if (action === "allow" && !/^mcp__[^*]+__/i.test(rawTool)) {
      return fail(
        `tool pattern "${rawTool}" is ignored in allow: an allow rule must name an MCP server (mcp__server__get_*)`,
      );
    }
    return { ok: true, value: { ...base, specifier: null } };
  }
  if (spec === null) return { ok: true, value: { ...base, specifier: null } };
  const parsed = parseSpecifier(tool, spec, action, dialect);
  if (!parsed.ok) return parsed;
  return { ok: true, value: { ...base, specifier: parsed.value } };
}

function paramSpec(name: string, value: string, action: Action, tool: string): ParseResult<Specifier> {
  if (SPECIFIER_FIELDS.has(name)) {
    return fail(
      `"${name}" is matched by the ${tool} specifier itself; write ${tool}(<pattern>) instead of ${tool}(${name}:…)`,
    );
  }
  if (action === "allow")
    return fail(
      `parameter rule ${tool}(${name}:…) works in deny/ask only: one parameter cannot prove the whole call safe`,
    );
  return { ok: true, value: { kind: "param", name, value: value.trim() } };
}

function parseSpecifier(tool: string, spec: string, action: Action, dialect: Dialect): ParseResult<Specifier> {
  // Claude Code: "Whitespace around the colon is ignored" in `Tool(param:value)`.
  const param = (dialect.rules.paramSpaces ? SPACED_PARAM_RE : PARAM_RE).exec(spec.trim());
  if (tool === "Shell") {
    if (spec.endsWith(":*")) {
      const prefix = spec.slice(0, -2).trim();
      return {
        ok: true,
        value: { kind: "shell", pattern: prefix ? `${prefix} *` : "*", dialect: shellDialect(dialect) },
      };
    }
    if (
      param &&
      (SPECIFIER_FIELDS.has(param[1]) || SHELL_PARAMS.has(param[1].toLowerCase()) || param[1].includes("_"))
    ) {
      return paramSpec(param[1], param[2], action, tool);
    }
    const pattern = spec.trim().replace(/\s+/g, " ");
    if (!pattern) return fail("empty shell pattern");
    return { ok: true, value: { kind: "shell", pattern, dialect: shellDialect(dialect) } };
  }
  if (PATH_TOOLS.has(tool)) {
    if (param && (SPECIFIER_FIELDS.has(param[1]) || PATH_PARAMS.has(param[1])))
      return paramSpec(param[1], param[2], action, tool);
    const pattern = spec.trim();
    if (pattern.includes("\0")) return fail("path pattern contains a NUL byte");
    return { ok: true, value: { kind: "path", pattern } };
  }
  if (tool === "WebFetch") {
    const dm = /^domain:(.+)$/i.exec(spec.trim());
    if (dm) {
      const host = dm[1].trim().toLowerCase();
      if (!/^[a-z0-9*._:-]+$/.test(host)) return fail(`invalid domain "${dm[1]}"`);
      return { ok: true, value: { kind: "domain", pattern: host } };
    }
    if (param) return paramSpec(param[1], param[2], action, tool);
    return fail("WebFetch rules take domain:HOST, e.g. WebFetch(domain:example.com)");
  }
  if (param) return paramSpec(param[1], param[2], action, tool);
  if (tool === "Agent") return { ok: true, value: { kind: "name", pattern: spec.trim() } };
  if (toolKind(tool) === "eval") return { ok: true, value: { kind: "shell", pattern: spec.trim(), dialect: "glob" } };
  return fail(`${tool} takes no specifier (got "${spec}")`);
}

/** Display name of a canonical rule tool in an agent's dialect. */
export function displayTool(tool: string, dialect: Dialect): string {
  if (tool === "Shell") return dialect.rules.shellTool;
  return tool;
}

/** Authored text for a rule in an agent's dialect (`Bash(git *)` for Claude Code, `Shell(git *)` for Command Code). */
export function formatRule(rule: Pick<Rule, "tool" | "specifier">, dialect: Dialect): string {
  const tool = displayTool(rule.tool, dialect);
  const s = rule.specifier;
  if (dialect.rules.form === "plist") return formatMevedelPlist(tool, s);
  if (!s) return tool;
  switch (s.kind) {
    case "shell":
    case "path":
    case "name":
      return `${tool}(${s.pattern})`;
    case "domain":
      return `${tool}(domain:${s.pattern})`;
    case "param":
      return `${tool}(${s.name}:${s.value})`;
    case "expression":
      return `${tool}(${s.value})`;
  }
}

/** Lisp string literal. */
export function lispString(s: string): string {
  return `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

function formatMevedelPlist(tool: string, s: Specifier | null): string {
  if (!s) return `(${lispString(tool)})`;
  const key =
    s.kind === "shell"
      ? ":pattern"
      : s.kind === "path"
        ? ":path"
        : s.kind === "domain"
          ? ":domain"
          : s.kind === "expression"
            ? ":expression"
            : ":name";
  const value = s.kind === "param" ? `${s.name}:${s.value}` : s.kind === "expression" ? s.value : s.pattern;
  return `(${lispString(tool)} ${key} ${lispString(value)})`;
}
