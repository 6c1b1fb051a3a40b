/**
 * Admin requirements (`/etc/codex/requirements.toml`): `[rules] prefix_rules = [{ pattern = [{ token = "git" },
 * { any_of = ["push", "fetch"] }], decision = "prompt" | "forbidden", justification = "…" }]`. Merged over the
 * rules files; `allow` is refused there (config/src/requirements_exec_policy.rs). Read-only for the cockpit.
 */
import { getStaticTOMLValue, parseTOML } from "toml-eslint-parser";
import type { AST } from "toml-eslint-parser";
import { z } from "zod";
import type { PatternToken, PrefixRule } from "./types";

const TokenToml = z.object({ token: z.string().optional(), any_of: z.array(z.string()).optional() }).strict();
const RuleToml = z
  .object({
    pattern: z.array(TokenToml),
    decision: z.enum(["allow", "prompt", "forbidden"]).optional(),
    justification: z.string().optional(),
  })
  .strict();
const RequirementsToml = z
  .object({
    rules: z
      .object({ prefix_rules: z.array(RuleToml) })
      .loose()
      .optional(),
  })
  .loose();

export type ParsedRequirements = { ok: true; rules: PrefixRule[] } | { ok: false; line: number; message: string };

/** Parse requirements.toml into prefix rules; errors name the rule index as Codex does, with a line. */
export function parseRequirements(path: string, text: string): ParsedRequirements {
  let ast;
  let value: unknown;
  try {
    ast = parseTOML(text);
    value = getStaticTOMLValue(ast);
  } catch (e) {
    const err = e as { message?: string; lineNumber?: number };
    return { ok: false, line: err.lineNumber ?? 1, message: err.message ?? "invalid TOML" };
  }
  const parsed = RequirementsToml.safeParse(value);
  if (!parsed.success) return { ok: false, line: 1, message: parsed.error.issues[0]!.message };
  const list = parsed.data.rules?.prefix_rules;
  if (!list) return { ok: true, rules: [] };
  if (list.length === 0) return { ok: false, line: 1, message: "rules prefix_rules cannot be empty" };
  const lines = ruleLines(ast);
  const rules: PrefixRule[] = [];
  for (const [i, r] of list.entries()) {
    const line = lines[i] ?? 1;
    const fail = (message: string): ParsedRequirements => ({
      ok: false,
      line,
      message: `rules prefix_rule at index ${i} ${message}`,
    });
    if (r.justification !== undefined && r.justification.trim() === "") return fail("has an empty justification");
    if (r.pattern.length === 0) return fail("has an empty pattern");
    const pattern: PatternToken[] = [];
    for (const [j, t] of r.pattern.entries()) {
      const bad = (reason: string) => fail(`has an invalid pattern token at index ${j}: ${reason}`);
      if (t.token !== undefined && t.any_of !== undefined) return bad("set either token or any_of, not both");
      if (t.token !== undefined) {
        if (t.token.trim() === "") return bad("token cannot be empty");
        pattern.push(t.token);
      } else if (t.any_of !== undefined) {
        if (t.any_of.length === 0) return bad("any_of cannot be empty");
        if (t.any_of.some((a) => a.trim() === "")) return bad("any_of cannot include empty tokens");
        pattern.push(t.any_of);
      } else return bad("set either token or any_of");
    }
    if (r.decision === undefined) return fail("is missing a decision");
    if (r.decision === "allow")
      return fail(
        "has decision 'allow', which is not permitted in requirements.toml: Codex merges these rules with other config and uses the most restrictive result (use 'prompt' or 'forbidden')",
      );
    const [head, ...rest] = pattern;
    const source = { file: path, line, endLine: line, start: 0, end: 0, layer: "requirements" as const };
    for (const first of typeof head === "string" ? [head] : head!)
      rules.push({
        kind: "prefix",
        first,
        rest,
        decision: r.decision,
        ...(r.justification !== undefined ? { justification: r.justification } : {}),
        pattern,
        source,
      });
  }
  return { ok: true, rules };
}

/** 1-based line of each `prefix_rules` entry (inline array or `[[rules.prefix_rules]]` tables). */
function ruleLines(ast: ReturnType<typeof parseTOML>): number[] {
  const out: number[] = [];
  const top = ast.body[0];
  for (const node of top.body) {
    if (node.type === "TOMLTable") {
      const key = node.resolvedKey.join(".");
      if (node.kind === "array" && key === "rules.prefix_rules") out.push(node.loc.start.line);
      if (key === "rules")
        for (const kv of node.body)
          if (kv.key.keys.map(keyName).join(".") === "prefix_rules" && kv.value.type === "TOMLArray")
            out.push(...(kv.value as AST.TOMLArray).elements.map((e: AST.TOMLNode) => e.loc.start.line));
    } else if (
      node.type === "TOMLKeyValue" &&
      node.key.keys.map(keyName).join(".") === "rules.prefix_rules" &&
      node.value.type === "TOMLArray"
    ) {
      out.push(...(node.value as AST.TOMLArray).elements.map((e: AST.TOMLNode) => e.loc.start.line));
    }
  }
  return out;
}

function keyName(k: { type: string; name?: string; value?: string }): string {
  return k.type === "TOMLBare" ? k.name! : String(k.value);
}
