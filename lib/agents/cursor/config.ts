/**
 * Reading Cursor CLI config files: `~/.cursor/cli-config.json` (global) and `<dir>/.cursor/cli.json` (project).
 * Source: https://cursor.com/docs/cli/reference/configuration ("Schema", "Notes": pure JSON, self-repair, `.bad` backup;
 * "Only permissions can be configured at the project level"). Pure: text in, data out; never throws.
 */
import { parseTree, printParseErrorCode, type Node, type ParseError } from "jsonc-parser";
import { z } from "zod";
import { parseToken, type CursorToken } from "./tokens";

export type CursorScope = "global" | "workspace";
export type CursorAction = "allow" | "deny";

/** One `permissions.allow|deny` entry of one file. */
export interface CursorRule {
  action: CursorAction;
  /** The exact string in the file. */
  text: string;
  /** null when the string is not a token Cursor documents (`error` says why); still listed and revocable. */
  token: CursorToken | null;
  error?: string;
  store: string;
  scope: CursorScope;
  /** Index in `permissions.<action>`. */
  index: number;
  /** 1-based line of the string in the file. */
  line: number;
}

export interface ParsedCursorConfig {
  valid: boolean;
  /** Why the file cannot be used; it is then never written. */
  error?: string;
  /** Parses as plain JSON (no comments, no trailing commas), as Cursor reads it. */
  strictJson: boolean;
  /** The file has a `permissions.allow` array (decides which allow lists count, see decide.ts). */
  definesAllow: boolean;
  rules: CursorRule[];
  warnings: string[];
}

/** One store as listed from disk (io/stores.ts reads it). */
export interface CursorStore extends ParsedCursorConfig {
  path: string;
  scope: CursorScope;
  /** `cli-config` = the global file; `cli` = a project `.cursor/cli.json`. */
  kind: "cli-config" | "cli";
  exists: boolean;
  /** sha256 of the bytes, "missing" for an absent file. */
  version: string;
  /** Folder below which writes check for symlinks (home or workspace). */
  root: string;
  writable: boolean;
  readOnlyReason?: string;
}

const TokenList = z.array(z.string());
/** The part of both files the cockpit reads; other keys pass through untouched (Cursor manages them). */
export const CursorPermissions = z.looseObject({ allow: TokenList.optional(), deny: TokenList.optional() });
export const CursorCliConfig = z.looseObject({ permissions: CursorPermissions.optional() });
export type CursorCliConfig = z.infer<typeof CursorCliConfig>;

const withoutBom = (t: string) => (t.startsWith("\uFEFF") ? " " + t.slice(1) : t);

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

const invalid = (error: string): ParsedCursorConfig => ({
  valid: false,
  error,
  strictJson: false,
  definesAllow: false,
  rules: [],
  warnings: [],
});

/** Parse one Cursor config file's text. `scope: "global"` for cli-config.json, `"workspace"` for a project cli.json. */
export function parseCursorConfig(text: string, file: string, scope: CursorScope): ParsedCursorConfig {
  const source = withoutBom(text);
  if (!source.trim()) return { valid: true, strictJson: true, definesAllow: false, rules: [], warnings: [] };
  const errors: ParseError[] = [];
  const root = parseTree(source, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length || !root) {
    const e = errors[0];
    return invalid(
      e ? `not valid JSON: ${printParseErrorCode(e.error)} at line ${lineOf(source, e.offset)}` : "not valid JSON",
    );
  }
  if (root.type !== "object") return invalid("the top level is not a JSON object");
  const dup = duplicateKey(root, "") ?? duplicateKey(propertyValue(root, "permissions"), "permissions.");
  if (dup) return invalid(`duplicate key ${dup}: readers disagree on which one counts`);
  let value: unknown;
  let strictJson = true;
  try {
    value = JSON.parse(source);
  } catch {
    strictJson = false;
    value = nodeValue(root);
  }
  const parsed = CursorCliConfig.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? issue.path.map(String).join(".") : "file";
    return invalid(`${where}: ${issue.message}`);
  }
  const warnings: string[] = [];
  if (!strictJson)
    warnings.push(
      scope === "global"
        ? "Cursor reads cli-config.json as pure JSON: with comments or trailing commas it is corrupt and Cursor moves it to cli-config.json.bad; its allow entries are not counted"
        : "Cursor's config docs say pure JSON; comments or trailing commas in cli.json may make Cursor skip the file, so its allow entries are not counted (deny entries still are)",
    );
  if (scope === "workspace")
    for (const key of Object.keys(parsed.data))
      if (key !== "permissions")
        warnings.push(`${key}: only permissions can be set in a project cli.json; Cursor ignores it`);
  const rules: CursorRule[] = [];
  const permissions = propertyValue(root, "permissions");
  for (const action of ["allow", "deny"] as const) {
    const list = propertyValue(permissions, action);
    (list?.children ?? []).forEach((item, index) => {
      const t = String(item.value);
      const p = parseToken(t);
      rules.push({
        action,
        text: t,
        token: p.ok ? p.token : null,
        ...(p.ok ? {} : { error: p.error }),
        store: file,
        scope,
        index,
        line: lineOf(source, item.offset),
      });
    });
  }
  return {
    valid: true,
    strictJson,
    definesAllow: Array.isArray(parsed.data.permissions?.allow),
    rules,
    warnings,
  };
}

function propertyValue(object: Node | undefined, key: string): Node | undefined {
  return object?.type === "object"
    ? object.children?.find((p) => p.children?.[0]?.value === key)?.children?.[1]
    : undefined;
}

function duplicateKey(object: Node | undefined, prefix: string): string | null {
  if (object?.type !== "object") return null;
  const seen = new Set<string>();
  for (const p of object.children ?? []) {
    const k = String(p.children?.[0]?.value);
    if (seen.has(k)) return prefix + k;
    seen.add(k);
  }
  return null;
}

/** Value of a JSONC tree (the tree of a file with comments, which JSON.parse refuses). */
function nodeValue(n: Node): unknown {
  switch (n.type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const p of n.children ?? [])
        if (p.children?.[0] && p.children[1]) out[String(p.children[0].value)] = nodeValue(p.children[1]);
      return out;
    }
    case "array":
      return (n.children ?? []).map(nodeValue);
    default:
      return n.value;
  }
}
