/**
 * Gemini's stores as the cockpit lists them (`cockpit entries`, the Rules page): every policy file by tier (built-in
 * defaults and admin files read-only, workspace files marked "not loaded by this Gemini version", a broken file
 * invalid with Gemini's own error), one entry per `[[rule]]` table; the settings files with one entry per rule they
 * derive (the hidden narrowing denies included, read-only); trustedFolders.json with one entry per folder. Pure: the
 * stores as read and each file's version are handed in.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import type { Scope } from "@/lib/policy";
import type { StoreListing } from "../types";
import { info } from "./info";
import type { GeminiStores, PolicyStoreFile } from "./io/stores";
import { ruleLine, TO_ACTION } from "./rule-text";
import type { GeminiRule, TierName } from "./types";

type Entry = StoreListing["entries"][number];
type StoreInfo = StoreListing["stores"][number];

export const GEMINI_TOML = "gemini-toml" as const;
export const GEMINI_JSON = "gemini-json" as const;

/** What an entry points at, for edits. */
export type GeminiTarget =
  | { kind: "table"; file: PolicyStoreFile; index: number }
  | { kind: "setting"; file: string; setting: string }
  | { kind: "trust"; file: string; folder: string };

export interface LocatedGeminiEntry {
  entry: Entry;
  target: GeminiTarget;
}

export interface GeminiListing extends StoreListing {
  located: LocatedGeminiEntry[];
}

export const TIER_SCOPE: Record<TierName, Scope> = {
  default: "managed",
  extension: "global",
  workspace: "workspace",
  user: "global",
  admin: "managed",
};

export function entryId(file: string, text: string, occurrence: number): string {
  return createHash("sha256").update(`${info.id}\0${file}\0${text}\0${occurrence}`).digest("hex").slice(0, 16);
}

function toolOf(value: Record<string, unknown>): string | null {
  const t = value.toolName;
  const name = Array.isArray(t) ? t.join(",") : typeof t === "string" ? t : null;
  if (name && typeof value.mcpName === "string") return `mcp_${value.mcpName}_${name}`;
  return name;
}

function specifierOf(value: Record<string, unknown>): string | null {
  const p = value.commandPrefix ?? value.commandRegex ?? value.argsPattern;
  if (Array.isArray(p)) return p.join(" | ");
  return typeof p === "string" ? p : null;
}

function actionOf(decision: unknown): Entry["action"] {
  return decision === "allow" || decision === "deny" ? decision : "ask";
}

export interface ListingInput {
  stores: GeminiStores;
  workspace: string;
  home: string;
  /** sha256 of each file's bytes ("missing" when absent), by absolute path. */
  versions: ReadonlyMap<string, string>;
}

function settingsScope(stores: GeminiStores, file: string | undefined): Scope {
  const s = stores.settings.find((x) => x.path === file);
  if (!s) return "global";
  return s.scope === "workspace" ? "workspace" : s.scope === "user" ? "global" : "managed";
}

/** `tools.allowed[2]`, `mcp.excluded[0]`, `mcpServers.github.trust`: the setting's path in its file. */
export function settingPath(setting: string): (string | number)[] | null {
  const m = /^(tools\.(?:allowed|core|confirmationRequired)|mcp\.(?:allowed|excluded))\[(\d+)\]$/.exec(setting);
  if (m) return [...m[1]!.split("."), Number(m[2])];
  const t = /^mcpServers\.(.+)\.trust$/.exec(setting);
  return t ? ["mcpServers", t[1]!, "trust"] : null;
}

function settingRevocable(stores: GeminiStores, file: string, setting: string, hidden: boolean, v: string): boolean {
  const s = stores.settings.find((x) => x.path === file);
  return (
    !hidden &&
    v !== "missing" &&
    !!s &&
    (s.scope === "user" || s.scope === "workspace") &&
    (!s.error || s.error.startsWith("ignored")) &&
    settingPath(setting) !== null
  );
}

function ruleSummary(r: GeminiRule): string {
  const what = [
    r.mcpName ? `mcpName = ${JSON.stringify(r.mcpName)}` : null,
    r.argsPattern ? `argsPattern = ${JSON.stringify(r.argsPattern.source)}` : null,
  ].filter(Boolean);
  return [`toolName = ${JSON.stringify(r.toolName)}`, ...what, `decision = "${r.decision}"`].join(", ");
}

export function geminiListing({ stores, workspace, home, versions }: ListingInput): GeminiListing {
  const located: LocatedGeminiEntry[] = [];
  const infos: StoreInfo[] = [];
  const version = (file: string) => versions.get(file) ?? "missing";

  for (const f of stores.files) {
    const builtin = f.tier === "default";
    const v = builtin ? "builtin" : version(f.path);
    const writable = !f.readOnly && !f.invalid && (f.tier === "user" || f.tier === "workspace");
    const error = f.invalid
      ? f.errors.map((e) => `${e.message}${e.details ? `: ${e.details}` : ""}`).join("; ")
      : undefined;
    const store = { path: f.path, format: GEMINI_TOML, version: v, valid: !f.invalid, ...(error ? { error } : {}) };
    const seen = new Map<string, number>();
    let count = 0;
    for (const t of f.tables) {
      const text = ruleLine(t.value);
      const n = seen.get(text) ?? 0;
      seen.set(text, n + 1);
      const dropped = f.errors.find((e) => e.ruleIndex === t.index && e.severity === "error");
      located.push({
        entry: {
          id: entryId(f.path, text, n),
          scope: TIER_SCOPE[f.tier],
          kind: "rule",
          agent: info.id,
          action: actionOf(t.value.decision),
          rule: text,
          tool: toolOf(t.value),
          specifier: specifierOf(t.value),
          ...(dropped ? { malformed: `${dropped.message}${dropped.details ? `: ${dropped.details}` : ""}` } : {}),
          store,
          line: t.line,
          writable,
        },
        target: { kind: "table", file: f, index: t.index },
      });
      count++;
    }
    const reason = builtin
      ? "built into Gemini CLI"
      : f.tier === "admin"
        ? "admin policy (read-only)"
        : f.tier === "extension"
          ? `installed by the extension ${f.extension ?? ""}`.trim()
          : undefined;
    infos.push({
      path: f.path,
      format: GEMINI_TOML,
      agent: info.id,
      scope: TIER_SCOPE[f.tier],
      version: v,
      valid: !f.invalid,
      ...(error ? { error } : {}),
      writable,
      ...(!writable && reason ? { readOnlyReason: reason } : {}),
      ...(f.help ? { help: f.help } : {}),
      ...(!f.loaded && f.notLoadedReason ? { inactive: f.notLoadedReason } : {}),
      base: path.resolve(workspace),
      entryCount: count,
    } as StoreInfo);
  }

  // Rules derived from settings: one entry per setting (a tools.allowed entry may yield several patterns).
  const settingsRules = stores.rules.filter((r) => r.origin?.kind === "settings");
  const perFile = new Map<string, number>();
  const bySetting = new Map<string, GeminiRule>();
  for (const r of settingsRules) {
    const k = `${r.origin?.file ?? ""}\0${r.origin?.setting ?? ""}`;
    if (!bySetting.has(k)) bySetting.set(k, r);
  }
  for (const r of bySetting.values()) {
    const file = r.origin?.file ?? path.join(home, ".gemini", "settings.json");
    const setting = r.origin?.setting ?? "settings";
    const hidden = /\(/.test(setting);
    const text = `${setting}: ${ruleSummary(r)} (priority ${r.priority.toFixed(3)})`;
    perFile.set(file, (perFile.get(file) ?? 0) + 1);
    located.push({
      entry: {
        id: entryId(file, text, 0),
        scope: settingsScope(stores, file),
        kind: "rule",
        agent: info.id,
        action: TO_ACTION[r.decision],
        rule: text,
        tool: r.toolName,
        specifier: r.argsPattern ? r.argsPattern.source : (r.mcpName ?? null),
        store: { path: file, format: GEMINI_JSON, version: version(file), valid: true },
        line: 0,
        // Revoking removes the setting's own element (jsonc-parser, every other byte kept). The hidden denies have no
        // text of their own, a system file is the admin's, and tools.exclude is a union of every file's list.
        writable: settingRevocable(stores, file, setting, hidden, version(file)),
      },
      target: { kind: "setting", file, setting },
    });
  }
  for (const s of stores.settings) {
    infos.push({
      path: s.path,
      format: GEMINI_JSON,
      agent: info.id,
      scope: s.scope === "workspace" ? "workspace" : s.scope === "user" ? "global" : "managed",
      version: version(s.path),
      valid: !s.error || s.error.startsWith("ignored"),
      ...(s.error && !s.error.startsWith("ignored") ? { error: s.error } : {}),
      ...((s.scope === "user" || s.scope === "workspace") && s.exists && (!s.error || s.error.startsWith("ignored"))
        ? { writable: true }
        : { writable: false, readOnlyReason: s.exists ? "the system's settings are the admin's" : "no such file" }),
      ...(s.error?.startsWith("ignored") ? { inactive: s.error } : {}),
      base: path.resolve(workspace),
      entryCount: perFile.get(s.path) ?? 0,
    } as StoreInfo);
  }

  // Folder trust: one entry per trustedFolders.json folder (allow = trusted, deny = DO_NOT_TRUST).
  const trustFile = stores.trust.file;
  let trustCount = 0;
  for (const rule of stores.trust.rules) {
    const text = `${JSON.stringify(rule.path)}: ${rule.level}`;
    located.push({
      entry: {
        id: entryId(trustFile, text, 0),
        scope: "global",
        kind: "rule",
        agent: info.id,
        action: rule.level === "DO_NOT_TRUST" ? "deny" : "allow",
        rule: text,
        tool: "trust",
        specifier: rule.path,
        store: { path: trustFile, format: GEMINI_JSON, version: version(trustFile), valid: true },
        line: 0,
        writable: false,
      },
      target: { kind: "trust", file: trustFile, folder: rule.path },
    });
    trustCount++;
  }
  infos.push({
    path: trustFile,
    format: GEMINI_JSON,
    agent: info.id,
    scope: "global",
    version: version(trustFile),
    valid: !stores.trust.error,
    ...(stores.trust.error ? { error: stores.trust.error } : {}),
    writable: false,
    readOnlyReason: "folder trust is changed in Gemini (/permissions) or in trustedFolders.json",
    base: path.resolve(workspace),
    entryCount: trustCount,
  } as StoreInfo);

  const banner = stores.trust.trusted
    ? undefined
    : `Gemini does not trust ${workspace} (${stores.trust.reason}): it ignores the workspace's settings, runs in default mode and asks before every git command.`;
  return { entries: located.map((l) => l.entry), stores: infos, located, ...(banner ? { banner } : {}) };
}
