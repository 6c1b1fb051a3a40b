import { z } from "zod";
import { datumError, printDatum, readPlist, readSexps, SexpError, type Datum } from "@/lib/sexp/read";
import type { Action, EntryKind, Grant, MevedelRuleData } from "./types";

type Converted =
  | string
  | number
  | boolean
  | null
  | { $symbol: string }
  | { $keyword: string }
  | Converted[]
  | { [k: string]: Converted };

const sym = <T extends string>(names: readonly [T, ...T[]]) =>
  z.object({ $symbol: z.enum(names) }).transform((v) => v.$symbol);
const Flag = z.union([z.literal(true), z.null()]).transform((v) => v === true);

const PlistGrant = z.strictObject({
  path: z.string().min(1),
  access: sym(["read", "write"]),
  recursive: Flag.optional(),
});
const PlistRule = z.strictObject({
  tool: z.string().min(1),
  path: z.string().optional(),
  pattern: z.string().optional(),
  expression: z.string().optional(),
  domain: z.string().optional(),
  name: z.string().optional(),
  action: sym(["allow", "ask", "deny"]),
  network: Flag.optional(),
  fileSystem: z.union([z.array(PlistGrant), z.null()]).optional(),
  sandboxPermissions: z.object({ $symbol: z.string() }).optional(),
});

export interface PlistRawEntry {
  kind: EntryKind;
  list: "rules" | "resource-grants";
  action: Action;
  /** Canonical one-line text of the datum. */
  text: string;
  start: number;
  end: number;
  datum: Datum;
  /** Keyword → key/value datums of the rule or grant plist, for in-place edits. */
  fields: Map<string, { key: Datum; value: Datum }>;
  rule?: MevedelRuleData;
  grant?: Grant;
}

export interface PlistDocument {
  /** The top-level plist, absent for an empty file. */
  top?: Datum & { type: "list" };
  rules?: Datum;
  grants?: Datum;
  fields: Map<string, { key: Datum; value: Datum }>;
  comments: { start: number; end: number }[];
}

export type PlistParse =
  { ok: true; doc: PlistDocument; entries: PlistRawEntry[]; empty: boolean } | { ok: false; error: string };

const camel = (keyword: string) => keyword.slice(1).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

function convert(text: string, d: Datum): Converted {
  switch (d.type) {
    case "string":
    case "number":
      return d.value;
    case "t":
      return true;
    case "nil":
      return null;
    case "symbol":
      return { $symbol: d.name };
    case "keyword":
      return { $keyword: d.name };
    case "list":
      if (d.items[0]?.type === "keyword") return convertPlist(text, d, "plist");
      return d.items.map((item) => convert(text, item));
  }
}

function convertPlist(text: string, d: Datum, what: string): { [k: string]: Converted } {
  const out: { [k: string]: Converted } = {};
  for (const [key, { value }] of readPlist(text, d, what)) out[camel(key)] = convert(text, value);
  return out;
}

function shapeError(text: string, d: Datum, error: z.ZodError, what: string): SexpError {
  const issue = error.issues[0];
  const where = issue.path.length ? ` ${issue.path.join(".")}` : "";
  return datumError(text, d, `wrong shape: ${what}${where}: ${issue.message}`);
}

/** Parse `(:rules (...) :resource-grants (...))`; a missing/empty file is a valid empty store. */
export function parsePlistStore(text: string): PlistParse {
  try {
    return { ok: true, ...readDocument(text) };
  } catch (error) {
    if (error instanceof SexpError) return { ok: false, error: error.message };
    throw error;
  }
}

function readDocument(text: string): { doc: PlistDocument; entries: PlistRawEntry[]; empty: boolean } {
  const { data, comments } = readSexps(text);
  if (data.length === 0) return { doc: { fields: new Map(), comments }, entries: [], empty: true };
  if (data.length > 1) throw datumError(text, data[1], "more than one top-level form");
  const top = data[0];
  if (top.type !== "list") throw datumError(text, top, "wrong shape: expected (:rules (...) :resource-grants (...))");
  const fields = readPlist(text, top, "permissions plist");
  for (const [key, { key: k }] of fields) {
    if (key !== ":rules" && key !== ":resource-grants") throw datumError(text, k, `wrong shape: unknown key ${key}`);
  }
  const rules = fields.get(":rules")?.value;
  const grants = fields.get(":resource-grants")?.value;
  const entries: PlistRawEntry[] = [];
  for (const [list, value] of [
    ["rules", rules],
    ["resource-grants", grants],
  ] as const) {
    if (!value || value.type === "nil") continue;
    if (value.type !== "list") throw datumError(text, value, `wrong shape: :${list} must be a list`);
    for (const item of value.items) entries.push(list === "rules" ? readRule(text, item) : readGrant(text, item));
  }
  return { doc: { top, rules, grants, fields, comments }, entries, empty: false };
}

function readRule(text: string, d: Datum): PlistRawEntry {
  if (d.type !== "list" || d.items[0]?.type !== "string") {
    throw datumError(text, d, 'wrong shape: a rule is ("TOOL" :key value ... :action ACTION)');
  }
  const plist: Datum = { type: "list", items: d.items.slice(1), start: d.start, end: d.end };
  const fields = readPlist(text, plist, "rule");
  const parsed = PlistRule.safeParse({ tool: d.items[0].value, ...convertPlist(text, plist, "rule") });
  if (!parsed.success) throw shapeError(text, d, parsed.error, "rule");
  const { sandboxPermissions: _ignored, fileSystem, network, ...rest } = parsed.data;
  const rule: MevedelRuleData = { ...rest };
  // Only keys present in the file reach the engine: a profile key on a non-Bash rule is its call.
  if (network !== undefined) rule.network = network;
  if (fileSystem !== undefined) {
    rule.fileSystem = (fileSystem ?? []).map((g) => ({
      path: g.path,
      access: g.access,
      recursive: g.recursive ?? false,
    }));
  }
  const kind: EntryKind = rule.network || (rule.fileSystem?.length ?? 0) > 0 ? "profile" : "rule";
  return {
    kind,
    list: "rules",
    action: rule.action,
    text: printDatum(d),
    start: d.start,
    end: d.end,
    datum: d,
    fields,
    rule,
  };
}

function readGrant(text: string, d: Datum): PlistRawEntry {
  const fields = readPlist(text, d, "resource grant");
  const parsed = PlistGrant.safeParse(convertPlist(text, d, "resource grant"));
  if (!parsed.success) throw shapeError(text, d, parsed.error, "resource grant");
  const grant: Grant = {
    path: parsed.data.path,
    access: parsed.data.access,
    recursive: parsed.data.recursive ?? false,
  };
  return {
    kind: "grant",
    list: "resource-grants",
    action: "allow",
    text: printDatum(d),
    start: d.start,
    end: d.end,
    datum: d,
    fields,
    grant,
  };
}
