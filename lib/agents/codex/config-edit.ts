/**
 * Format-keeping edits of Codex's `config.toml` (trust, approval policy, sandbox mode): locate the key with
 * toml-eslint-parser ranges and splice only its value, or insert one line where Codex's own writer
 * (toml_edit, `set_project_trust_level`) would put it. Never a reformat; the result is re-parsed and checked.
 */
import { parseTOML, type AST } from "toml-eslint-parser";
import type { ApprovalPolicy, SandboxMode } from "./decide";
import { parseCodexConfig, type TrustLevel } from "./config";

export class ConfigEditRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigEditRefused";
  }
}

function keyParts(key: AST.TOMLKey): string[] {
  return key.keys.map((k) => (k.type === "TOMLBare" ? k.name : String(k.value)));
}

function parseOrRefuse(text: string): AST.TOMLTopLevelTable {
  try {
    return parseTOML(text).body[0];
  } catch (e) {
    const err = e as { message?: string; lineNumber?: number };
    throw new ConfigEditRefused(
      `config.toml line ${err.lineNumber ?? "?"}: ${err.message ?? "invalid TOML"} — it is never overwritten`,
    );
  }
}

const tomlString = (s: string) => JSON.stringify(s);
const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

function checked(text: string, verify: (c: ReturnType<typeof parseCodexConfig>) => boolean): string {
  const parsed = parseCodexConfig(text);
  if (!parsed.ok || !verify(parsed))
    throw new ConfigEditRefused("the edit did not read back as intended; nothing was written");
  return text;
}

/** Find a key/value at `path` (top level or inside a `[table]`); dotted-key and inline-table forms are located too. */
function findValue(top: AST.TOMLTopLevelTable, path: readonly string[]): AST.TOMLKeyValue | undefined {
  for (const node of top.body) {
    if (node.type === "TOMLKeyValue" && same(keyParts(node.key), path)) return node;
    if (node.type === "TOMLTable" && node.kind === "standard") {
      const prefix = node.resolvedKey.map(String);
      if (prefix.length >= path.length || !same(prefix, path.slice(0, prefix.length))) continue;
      for (const kv of node.body) if (same([...prefix, ...keyParts(kv.key)], path)) return kv;
    }
  }
  return undefined;
}

function findTable(top: AST.TOMLTopLevelTable, path: readonly string[]): AST.TOMLTable | undefined {
  return top.body.find(
    (n): n is AST.TOMLTable => n.type === "TOMLTable" && n.kind === "standard" && same(n.resolvedKey.map(String), path),
  );
}

function splice(text: string, start: number, end: number, value: string): string {
  return text.slice(0, start) + value + text.slice(end);
}

/** Insert `line` at the end of `table` (after its last key/value), or as a new table at the end of the file. */
function insertInTable(
  text: string,
  top: AST.TOMLTopLevelTable,
  table: readonly string[],
  line: string,
  header: string,
): string {
  const t = findTable(top, table);
  if (t) {
    const at = t.body.length ? t.body[t.body.length - 1]!.range[1] : t.key.range[1] + 1;
    const eol = text.indexOf("\n", at);
    const pos = eol < 0 ? text.length : eol + 1;
    const pre = eol < 0 ? "\n" : "";
    return text.slice(0, pos) + pre + line + "\n" + text.slice(pos);
  }
  const sep = text === "" ? "" : text.endsWith("\n\n") ? "" : text.endsWith("\n") ? "\n" : "\n\n";
  return `${text}${sep}${header}\n${line}\n`;
}

/** Insert a top-level `key = value` line before the first table (where toml_edit puts root keys). */
function insertTopLevel(text: string, top: AST.TOMLTopLevelTable, line: string): string {
  const firstTable = top.body.find((n) => n.type === "TOMLTable");
  if (!firstTable) return text === "" || text.endsWith("\n") ? `${text}${line}\n` : `${text}\n${line}\n`;
  const lineStart = (at: number) => text.lastIndexOf("\n", at - 1) + 1;
  let at = lineStart(firstTable.range[0]);
  // Comments directly above the table stay with the table.
  while (at > 0) {
    const prev = lineStart(at - 1);
    if (
      !text
        .slice(prev, at - 1)
        .trimStart()
        .startsWith("#")
    )
      break;
    at = prev;
  }
  const before = text.slice(0, at);
  if (before.trim() === "") return `${before}${line}\n\n${text.slice(at)}`;
  if (before.endsWith("\n\n")) return `${text.slice(0, at - 1)}${line}\n${text.slice(at - 1)}`;
  return `${before}${line}\n${text.slice(at)}`;
}

function projectKeyPresent(top: AST.TOMLTopLevelTable, project: string): boolean {
  return top.body.some((n) => {
    if (n.type === "TOMLKeyValue") return keyParts(n.key)[0] === "projects";
    return (
      n.type === "TOMLTable" &&
      n.resolvedKey[0] === "projects" &&
      n.resolvedKey[1] === project &&
      n.resolvedKey.length > 2
    );
  });
}

/** `[projects."<path>"] trust_level = "trusted" | "untrusted"`. */
export function setProjectTrust(text: string, project: string, level: TrustLevel): string {
  const top = parseOrRefuse(text);
  const path = ["projects", project, "trust_level"];
  const existing = findValue(top, path);
  let next: string;
  if (existing) next = splice(text, existing.value.range[0], existing.value.range[1], tomlString(level));
  else {
    if (projectKeyPresent(top, project))
      throw new ConfigEditRefused(
        "config.toml writes projects as dotted keys or inline tables; edit trust there by hand",
      );
    next = insertInTable(
      text,
      top,
      ["projects", project],
      `trust_level = ${tomlString(level)}`,
      `[projects.${tomlString(project)}]`,
    );
  }
  return checked(next, (c) => c.ok && c.config.projects?.[project]?.trust_level === level);
}

function renderApproval(value: ApprovalPolicy): string {
  if (typeof value === "string") return tomlString(value);
  const g = value.granular;
  const fields = Object.entries(g)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k} = ${v}`);
  return `{ granular = { ${fields.join(", ")} } }`;
}

function setMode(text: string, key: "approval_policy" | "sandbox_mode", value: string, profile?: string): string {
  const top = parseOrRefuse(text);
  const path = profile ? ["profiles", profile, key] : [key];
  const existing = findValue(top, path);
  if (existing) return splice(text, existing.value.range[0], existing.value.range[1], value);
  const line = `${key} = ${value}`;
  if (profile)
    return insertInTable(
      text,
      top,
      ["profiles", profile],
      line,
      `[profiles.${/^[A-Za-z0-9_-]+$/.test(profile) ? profile : tomlString(profile)}]`,
    );
  return insertTopLevel(text, top, line);
}

/** Set `approval_policy` at the top level, or in `[profiles.<profile>]`. */
export function setApprovalPolicy(text: string, value: ApprovalPolicy, profile?: string): string {
  const next = setMode(text, "approval_policy", renderApproval(value), profile);
  return checked(next, (c) => {
    if (!c.ok) return false;
    const got = profile ? c.config.profiles?.[profile]?.approval_policy : c.config.approval_policy;
    return JSON.stringify(got) === JSON.stringify(value);
  });
}

/** Set `sandbox_mode` at the top level, or in `[profiles.<profile>]`. */
export function setSandboxMode(
  text: string,
  value: Exclude<SandboxMode, "external-sandbox">,
  profile?: string,
): string {
  const next = setMode(text, "sandbox_mode", tomlString(value), profile);
  return checked(
    next,
    (c) => c.ok && (profile ? c.config.profiles?.[profile]?.sandbox_mode : c.config.sandbox_mode) === value,
  );
}

/** One setting of a config.toml the cockpit lists as an entry, with its key path, value and line. */
export interface ConfigSetting {
  /** `["approval_policy"]`, `["profiles", "ci", "sandbox_mode"]`, `["projects", "/p", "trust_level"]`. */
  path: string[];
  value: unknown;
  line: number;
}

const LISTED = new Set(["approval_policy", "sandbox_mode", "trust_level"]);

function settingPath(path: readonly string[]): boolean {
  const last = path[path.length - 1]!;
  if (!LISTED.has(last)) return false;
  if (last === "trust_level") return path.length === 3 && path[0] === "projects";
  return path.length === 1 || (path.length === 3 && path[0] === "profiles");
}

/** The modes and trust levels a config.toml sets, in file order (tables, dotted keys and inline tables alike). */
export function listSettings(text: string): ConfigSetting[] {
  const top = parseOrRefuse(text);
  const out: ConfigSetting[] = [];
  const visit = (prefix: readonly string[], kv: AST.TOMLKeyValue) => {
    const path = [...prefix, ...keyParts(kv.key)];
    if (settingPath(path)) out.push({ path, value: valueOf(kv.value), line: kv.loc.start.line });
    else if (kv.value.type === "TOMLInlineTable") for (const inner of kv.value.body) visit(path, inner);
  };
  for (const node of top.body) {
    if (node.type === "TOMLKeyValue") visit([], node);
    else if (node.type === "TOMLTable" && node.kind === "standard")
      for (const kv of node.body) visit(node.resolvedKey.map(String), kv);
  }
  return out;
}

function valueOf(node: AST.TOMLKeyValue["value"]): unknown {
  if (node.type === "TOMLValue") return node.value;
  if (node.type === "TOMLInlineTable")
    return Object.fromEntries(node.body.map((kv) => [keyParts(kv.key).join("."), valueOf(kv.value)]));
  if (node.type === "TOMLArray") return node.elements.map(valueOf);
  return undefined;
}

/** Remove the `key = value` line at `path` (revoking a mode or a trust level); refuses a value inside an inline table. */
export function removeSetting(text: string, path: readonly string[]): string {
  const top = parseOrRefuse(text);
  const kv = findValue(top, path);
  if (!kv) throw new ConfigEditRefused(`config.toml no longer sets ${path.join(".")}; refresh`);
  const lineStart = text.lastIndexOf("\n", kv.range[0] - 1) + 1;
  if (text.slice(lineStart, kv.range[0]).trim() !== "")
    throw new ConfigEditRefused(`${path.join(".")} shares its line with other keys; edit it by hand`);
  const eol = text.indexOf("\n", kv.range[1]);
  const rest = text.slice(kv.range[1], eol < 0 ? text.length : eol);
  if (rest.trim() !== "" && !rest.trim().startsWith("#"))
    throw new ConfigEditRefused(`${path.join(".")} shares its line with other keys; edit it by hand`);
  const next = text.slice(0, lineStart) + text.slice(eol < 0 ? text.length : eol + 1);
  const parsed = parseCodexConfig(next);
  if (!parsed.ok) throw new ConfigEditRefused("the edit did not read back as intended; nothing was written");
  return next;
}
