import { getStaticTOMLValue, parseTOML, type AST } from "toml-eslint-parser";
import { z } from "zod";
import { formatMcpToolName, isValidToolName, MCP_TOOL_PREFIX } from "./names";
import { buildArgsPatterns, unsafeRegExpReason } from "./patterns";
import { GEMINI_MODES, TIER, type GeminiChecker, type GeminiRule, type PolicyFileError, type TierName } from "./types";

/**
 * One Gemini CLI policy file (`*.toml`) read the way Gemini reads it (facts from @google/gemini-cli-core 0.61.0
 * policy/toml-loader.ts): a TOML error or a schema error drops the whole file; a bad regex or an unsafe one
 * drops that rule only; shell-syntax mistakes are reported but the rule still loads. Pure: text in, rules out,
 * each with the line of its `[[rule]]` table.
 */

const decision = z.enum(["allow", "deny", "ask_user"]);
const modes = z.array(z.enum(GEMINI_MODES as [string, ...string[]]));
const stringOrList = z.union([z.string(), z.array(z.string())]);

const RuleSchema = z.object({
  toolName: stringOrList,
  subagent: z.string().optional(),
  mcpName: z.string().optional(),
  argsPattern: z.string().optional(),
  commandPrefix: stringOrList.optional(),
  commandRegex: z.string().optional(),
  decision,
  priority: z
    .number({ error: "priority must be a number" })
    .int({ message: "priority must be an integer" })
    .min(0, { message: "priority must be >= 0" })
    .max(999, { message: "priority must be <= 999 to prevent tier overflow" }),
  modes: modes.optional(),
  interactive: z.boolean().optional(),
  toolAnnotations: z.record(z.string(), z.any()).optional(),
  allowRedirection: z.boolean().optional(),
  allow_redirection: z.boolean().optional(),
  denyMessage: z.string().optional(),
  deny_message: z.string().optional(),
});
export type TomlRule = z.infer<typeof RuleSchema>;

const CheckerSchema = z.object({
  toolName: stringOrList,
  mcpName: z.string().optional(),
  argsPattern: z.string().optional(),
  commandPrefix: stringOrList.optional(),
  commandRegex: z.string().optional(),
  priority: z.number().int().default(0),
  modes: modes.optional(),
  toolAnnotations: z.record(z.string(), z.any()).optional(),
  checker: z.discriminatedUnion("type", [
    z.object({
      type: z.literal("in-process"),
      name: z.enum(["allowed-path", "conseca"]),
      required_context: z.array(z.string()).optional(),
      config: z.record(z.string(), z.unknown()).optional(),
    }),
    z.object({
      type: z.literal("external"),
      name: z.string(),
      required_context: z.array(z.string()).optional(),
      config: z.record(z.string(), z.unknown()).optional(),
    }),
  ]),
});

const FileSchema = z.object({
  rule: z.array(RuleSchema).optional(),
  safety_checker: z.array(CheckerSchema).optional(),
});

export interface ParsedPolicyFile {
  rules: GeminiRule[];
  checkers: GeminiChecker[];
  errors: PolicyFileError[];
  /** The file failed as a whole (TOML or schema error): Gemini loads none of its rules. */
  invalid: boolean;
  /** Each `[[rule]]` table's value and source range, in file order (for listing and edits). */
  tables: RuleTable[];
}

export interface RuleTable {
  index: number;
  /** 1-based line of the `[[rule]]` header. */
  line: number;
  range: [number, number];
  value: Record<string, unknown>;
}

const tierLabel = (tier: TierName) => tier.charAt(0).toUpperCase() + tier.slice(1);

/** Parse TOML the way Gemini's `@iarna/toml` 2.2.5 accepts it (TOML 0.5: no mixed-type arrays). */
export function parseGeminiToml(text: string): { ast: AST.TOMLProgram; value: Record<string, unknown> } {
  let ast: AST.TOMLProgram;
  try {
    ast = parseTOML(text, { tomlVersion: "1.0" });
  } catch (e) {
    // @iarna/toml accepts a trailing comma in an inline table, which TOML 1.0 forbids and 1.1 allows.
    if (!/Trailing comma is not permitted in an inline table/.test((e as Error).message)) throw e;
    ast = parseTOML(text, { tomlVersion: "1.1" });
    rejectTomlAfter10(ast);
  }
  rejectMixedArrays(ast);
  return { ast, value: getStaticTOMLValue(ast) as Record<string, unknown> };
}

function walk(node: AST.TOMLNode, visit: (n: AST.TOMLNode) => void): void {
  visit(node);
  switch (node.type) {
    case "Program":
      node.body.forEach((n) => walk(n, visit));
      break;
    case "TOMLTopLevelTable":
    case "TOMLTable":
    case "TOMLInlineTable":
      node.body.forEach((n) => walk(n, visit));
      break;
    case "TOMLKeyValue":
      walk(node.value, visit);
      break;
    case "TOMLArray":
      node.elements.forEach((n) => walk(n, visit));
      break;
    default:
      break;
  }
}

const kindOf = (n: AST.TOMLContentNode) =>
  n.type === "TOMLValue" ? (n.kind.includes("date") || n.kind.includes("time") ? n.kind : n.kind) : n.type;

function rejectMixedArrays(ast: AST.TOMLProgram): void {
  walk(ast, (n) => {
    if (n.type !== "TOMLArray" || n.elements.length < 2) return;
    const first = kindOf(n.elements[0]);
    const other = n.elements.find((e) => kindOf(e) !== first);
    if (other) throw new Error(`Inline lists must be a single type (line ${other.loc.start.line})`);
  });
}

/** With TOML 1.1 allowed for the trailing comma only, refuse what else 1.1 adds and @iarna/toml does not read. */
function rejectTomlAfter10(ast: AST.TOMLProgram): void {
  for (const t of ast.tokens) {
    if ((t.type === "BasicString" || t.type === "MultiLineBasicString") && /\\(?:e|x[0-9a-fA-F]{2})/.test(t.value)) {
      throw new Error(`Unknown escape character (line ${t.loc.start.line})`);
    }
  }
  walk(ast, (n) => {
    if (n.type === "TOMLInlineTable" && n.loc.start.line !== n.loc.end.line) {
      throw new Error(`Inline tables cannot span lines (line ${n.loc.start.line})`);
    }
  });
}

/** The `[[rule]]` tables of a parsed file, with their positions. */
export function ruleTables(ast: AST.TOMLProgram, value: Record<string, unknown>): RuleTable[] {
  const list = Array.isArray(value.rule) ? (value.rule as unknown[]) : [];
  const tables: RuleTable[] = [];
  const top = ast.body[0];
  let i = 0;
  for (const node of top.body) {
    if (
      node.type === "TOMLTable" &&
      node.kind === "array" &&
      node.resolvedKey.length === 2 &&
      node.resolvedKey[0] === "rule"
    ) {
      const v = list[i];
      tables.push({
        index: i,
        line: node.loc.start.line,
        range: node.range,
        value: v && typeof v === "object" ? (v as Record<string, unknown>) : {},
      });
      i++;
    }
  }
  return tables;
}

function validateShellSyntax(rule: TomlRule, i: number): string | null {
  const hasPrefix = rule.commandPrefix !== undefined;
  const hasRegex = rule.commandRegex !== undefined;
  if (!hasPrefix && !hasRegex) return null;
  if (rule.toolName !== "run_shell_command" || Array.isArray(rule.toolName)) {
    return `Rule #${i + 1}: commandPrefix and commandRegex can only be used with toolName = "run_shell_command"`;
  }
  if (rule.argsPattern !== undefined)
    return `Rule #${i + 1}: cannot use both commandPrefix/commandRegex and argsPattern`;
  if (hasPrefix && hasRegex) return `Rule #${i + 1}: cannot use both commandPrefix and commandRegex`;
  return null;
}

/** Load one policy file's text as Gemini would for the given tier. */
export function parsePolicyFile(input: {
  file: string;
  content: string;
  tier: TierName;
  builtin?: boolean;
}): ParsedPolicyFile {
  const { file, content, tier } = input;
  const fileName = file.split(/[\\/]/).pop() ?? file;
  const errors: PolicyFileError[] = [];
  const fail = (errorType: PolicyFileError["errorType"], message: string, details?: string): ParsedPolicyFile => {
    errors.push({ file, tier, errorType, severity: "error", message, details });
    return { rules: [], checkers: [], errors, invalid: true, tables: [] };
  };
  let ast: AST.TOMLProgram;
  let value: Record<string, unknown>;
  try {
    ({ ast, value } = parseGeminiToml(content));
  } catch (e) {
    return fail("toml_parse", "TOML parsing failed", (e as Error).message);
  }
  const tables = ruleTables(ast, value);
  const parsed = FileSchema.safeParse(value);
  if (!parsed.success) {
    const details = parsed.error.issues.map((iss) => `Field "${iss.path.join(".")}": ${iss.message}`).join("\n");
    const r = fail("schema_validation", "Schema validation failed", details);
    r.tables = tables;
    return r;
  }
  const tomlRules = parsed.data.rule ?? [];
  const lineOf = (i: number) => tables[i]?.line;
  tomlRules.forEach((rule, i) => {
    const err = validateShellSyntax(rule, i);
    if (err) {
      errors.push({
        file,
        tier,
        errorType: "rule_validation",
        severity: "error",
        message: "Invalid shell command syntax",
        details: err,
        ruleIndex: i,
        line: lineOf(i),
      });
    }
  });
  tomlRules.forEach((rule, i) => {
    const names = Array.isArray(rule.toolName) ? rule.toolName : [rule.toolName];
    if (names.some((n) => n === "")) {
      errors.push({
        file,
        tier,
        errorType: "rule_validation",
        severity: "error",
        message: "Invalid policy rule: toolName cannot be empty string",
        ruleIndex: i,
        line: lineOf(i),
      });
      return;
    }
    for (const n of names) {
      const details = n.includes("__")
        ? `Rule #${i + 1}: The "__" syntax for MCP tools is strictly deprecated.`
        : !isValidToolName(n)
          ? `Rule #${i + 1}: "${n}" is not a built-in tool, an MCP name or a discovered tool`
          : null;
      if (details) {
        errors.push({
          file,
          tier,
          errorType: "tool_name_warning",
          severity: "warning",
          message: "Unrecognized tool name",
          details,
          ruleIndex: i,
          line: lineOf(i),
        });
      }
    }
  });

  const tierNo = TIER[tier];
  const source = `${tierLabel(tier)}: ${fileName}`;
  const rules: GeminiRule[] = [];
  tomlRules.forEach((rule, i) => {
    const patterns = buildArgsPatterns(rule.argsPattern, rule.commandPrefix, rule.commandRegex);
    const names = Array.isArray(rule.toolName) ? rule.toolName : [rule.toolName];
    for (const pattern of patterns) {
      for (const toolName of names) {
        const out: GeminiRule = {
          toolName: rule.mcpName ? formatMcpToolName(rule.mcpName, toolName) : toolName,
          subagent: rule.subagent,
          mcpName: rule.mcpName,
          decision: rule.decision,
          priority: tierNo + rule.priority / 1000,
          modes: rule.modes as GeminiRule["modes"],
          interactive: rule.interactive,
          toolAnnotations: rule.toolAnnotations,
          allowRedirection: rule.allowRedirection ?? rule.allow_redirection,
          source,
          denyMessage: rule.denyMessage ?? rule.deny_message,
          origin: { kind: input.builtin ? "builtin" : "toml", file, line: lineOf(i), ruleIndex: i, tier },
        };
        if (pattern) {
          const why = unsafeRegExpReason(pattern);
          if (why) {
            errors.push({
              file,
              tier,
              errorType: "regex_compilation",
              severity: "error",
              message: why.startsWith("invalid") ? "Invalid regex pattern" : "Unsafe regex pattern (potential ReDoS)",
              details: `Pattern: ${pattern}\n${why}`,
              ruleIndex: i,
              line: lineOf(i),
            });
            continue;
          }
          out.argsPattern = new RegExp(pattern);
        }
        rules.push(out);
      }
    }
  });

  const checkers: GeminiChecker[] = [];
  for (const c of parsed.data.safety_checker ?? []) {
    const patterns = buildArgsPatterns(c.argsPattern, c.commandPrefix, c.commandRegex);
    const names = Array.isArray(c.toolName) ? c.toolName : [c.toolName];
    for (const pattern of patterns) {
      for (const toolName of names) {
        const effective = c.mcpName
          ? toolName !== "*"
            ? `${MCP_TOOL_PREFIX}${c.mcpName}_${toolName}`
            : `${MCP_TOOL_PREFIX}${c.mcpName}_*`
          : toolName;
        const out: GeminiChecker = {
          toolName: effective,
          mcpName: c.mcpName,
          priority: tierNo + c.priority / 1000,
          modes: c.modes as GeminiChecker["modes"],
          toolAnnotations: c.toolAnnotations,
          checker: { type: c.checker.type, name: c.checker.name, config: c.checker.config },
          source,
          origin: { kind: input.builtin ? "builtin" : "toml", file, tier },
        };
        if (pattern) {
          if (unsafeRegExpReason(pattern)) continue;
          out.argsPattern = new RegExp(pattern);
        }
        checkers.push(out);
      }
    }
  }
  return { rules, checkers, errors, invalid: false, tables };
}
