import { parseTree, printParseErrorCode, type Node, type ParseError } from "jsonc-parser";
import { z } from "zod";
import { lineColumn } from "@/lib/sexp/read";
import { ACTIONS } from "@/lib/policy/types";
import type { Action } from "./types";

const RuleList = z.array(z.string());
/**
 * Seed 002: `"disableBypass": "disable"` (or `true`) turns yolo off. Any other present value except `false` is read
 * the safer way (bypass disabled): an unknown value of one field never makes the whole file, and its deny rules, invalid.
 */
const BypassSwitch = z
  .unknown()
  .transform((v): boolean | undefined => (v === undefined || v === null ? undefined : v !== false))
  .optional();
export const JsonPermissions = z.looseObject({
  allow: RuleList.optional(),
  ask: RuleList.optional(),
  deny: RuleList.optional(),
  // Unknown values of the scalar fields are ignored (fewer roots, default mode), never fatal to the file.
  additionalDirectories: z.array(z.string()).optional().catch(undefined),
  defaultMode: z.string().optional().catch(undefined),
  disableBypassPermissionsMode: BypassSwitch,
  disableBypass: BypassSwitch,
  // Claude Code: `"disable"` removes auto mode (any value but false is read the safer way).
  disableAutoMode: BypassSwitch,
});
export const JsonSettings = z.looseObject({
  permissions: JsonPermissions.optional(),
  disableBypass: BypassSwitch,
  disableAutoMode: BypassSwitch,
  // Claude Code, managed settings only: ignore every other source's permission rules (any value but false counts).
  allowManagedPermissionRulesOnly: BypassSwitch,
});
export type JsonSettings = z.infer<typeof JsonSettings>;

export interface JsonRawEntry {
  action: Action;
  text: string;
  index: number;
  start: number;
  end: number;
}

export type JsonParse =
  { ok: true; settings: JsonSettings; entries: JsonRawEntry[]; empty: boolean } | { ok: false; error: string };

/** Claude Code files are strict JSON; Command Code files accept comments and trailing commas. */
export function parseJsonSettings(text: string, strict: boolean): JsonParse {
  // A BOM is replaced by a space of the same length so offsets stay valid for splicing.
  const source = text.startsWith("\uFEFF") ? " " + text.slice(1) : text;
  if (/^\s*$/.test(source)) return { ok: true, settings: {}, entries: [], empty: true };
  const errors: ParseError[] = [];
  let root: Node | undefined;
  try {
    root = parseTree(source, errors, {
      disallowComments: strict,
      allowTrailingComma: !strict,
      allowEmptyContent: !strict,
    });
  } catch {
    return { ok: false, error: "nesting too deep to read" };
  }
  if (errors.length) {
    const e = errors[0];
    const { line, column } = lineColumn(source, e.offset);
    return { ok: false, error: `line ${line}, column ${column}: ${printParseErrorCode(e.error)}` };
  }
  if (!root) return { ok: true, settings: {}, entries: [], empty: true };
  const duplicate = findDuplicateKey(root);
  if (duplicate) {
    const { line, column } = lineColumn(source, duplicate.offset);
    return { ok: false, error: `line ${line}, column ${column}: duplicate key "${duplicate.value}"` };
  }
  const value = toValue(root);
  const parsed = JsonSettings.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length ? issue.path.join(".") : "settings";
    return { ok: false, error: `wrong shape: ${where}: ${issue.message}` };
  }
  return { ok: true, settings: parsed.data, entries: collectEntries(root), empty: false };
}

function property(node: Node | undefined, key: string): Node | undefined {
  if (!node || node.type !== "object") return undefined;
  for (const p of node.children ?? []) if (p.children?.[0]?.value === key) return p.children[1];
  return undefined;
}

function collectEntries(root: Node): JsonRawEntry[] {
  const permissions = property(root, "permissions");
  const out: JsonRawEntry[] = [];
  for (const action of ACTIONS) {
    const list = property(permissions, action);
    (list?.children ?? []).forEach((item, index) => {
      out.push({ action, text: item.value as string, index, start: item.offset, end: item.offset + item.length });
    });
  }
  return out;
}

/** Iterative conversion (deeply nested JSON must not overflow the stack). */
function toValue(root: Node): unknown {
  const MAX_DEPTH = 512;
  const build = (node: Node, depth: number): unknown => {
    if (depth > MAX_DEPTH) throw new Error("nesting too deep");
    if (node.type === "object") {
      const obj: Record<string, unknown> = {};
      for (const p of node.children ?? []) obj[p.children![0].value as string] = build(p.children![1], depth + 1);
      return obj;
    }
    if (node.type === "array") return (node.children ?? []).map((c) => build(c, depth + 1));
    return node.value;
  };
  try {
    return build(root, 0);
  } catch {
    return Symbol("too deep");
  }
}

function findDuplicateKey(root: Node): Node | undefined {
  const work: Node[] = [root];
  while (work.length) {
    const node = work.pop()!;
    if (node.type === "object") {
      const seen = new Set<string>();
      for (const p of node.children ?? []) {
        const key = p.children?.[0];
        if (key && seen.has(key.value)) return key;
        if (key) seen.add(key.value);
      }
    }
    for (const c of node.children ?? []) work.push(c);
  }
  return undefined;
}
