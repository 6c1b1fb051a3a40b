/**
 * Codex's stores as the cockpit lists them (`cockpit entries`, the Rules page): one store per file, one entry per
 * `prefix_rule` / `network_rule` call, per admin requirement and per mode or trust setting of a config.toml, each
 * with its file and line. The banner is the loudest state: one broken rules file, and Codex ignores every rule.
 * Pure: the stores as read are handed in.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import type { StoreListing } from "../types";
import { listSettings, type ConfigSetting } from "./config-edit";
import { info } from "./info";
import { failureBanner, networkRuleText, patternWords, prefixRuleText, scopeOfLayer, TO_ACTION } from "./rule-text";
import type { RuleCall } from "./rules-parse";
import type { CodexStoreFile, CodexStores } from "./store-files";
import type { PrefixRule } from "./types";

type Entry = StoreListing["entries"][number];
type StoreInfo = StoreListing["stores"][number];
type Paths = { workspace: string; home: string };

/** What an entry points at in its file, for edits. */
export type EntryTarget =
  | { kind: "call"; call: RuleCall }
  | { kind: "setting"; setting: ConfigSetting }
  | { kind: "requirement"; rule: PrefixRule };

export interface LocatedCodexEntry {
  entry: Entry;
  file: CodexStoreFile;
  target: EntryTarget;
}

export interface CodexListing extends StoreListing {
  located: LocatedCodexEntry[];
}

function entryId(file: string, kind: string, action: string, text: string, occurrence: number): string {
  return createHash("sha256")
    .update(`${info.id}\0${file}\0${kind}\0${action}\0${text}\0${occurrence}`)
    .digest("hex")
    .slice(0, 16);
}

function keyText(parts: readonly string[]): string {
  return parts.map((p) => (/^[A-Za-z0-9_-]+$/.test(p) ? p : JSON.stringify(p))).join(".");
}

/** `approval_policy = "never"`, `projects."/p".trust_level = "trusted"`: the setting as one TOML line. */
export function settingText(s: Pick<ConfigSetting, "path" | "value">): string {
  const v = s.value;
  const value =
    typeof v === "object" && v !== null
      ? `{ ${Object.entries(v as Record<string, unknown>)
          .map(([k, x]) => `${k} = ${typeof x === "object" && x !== null ? JSON.stringify(x) : JSON.stringify(x)}`)
          .join(", ")} }`
      : JSON.stringify(v);
  return `${keyText(s.path)} = ${value}`;
}

/** What a setting does to an unmatched command, as the Rules page's action tag says it. */
export function settingAction(s: Pick<ConfigSetting, "path" | "value">): Entry["action"] {
  const key = s.path[s.path.length - 1];
  if (key === "trust_level") return s.value === "trusted" ? "allow" : "deny";
  if (key === "sandbox_mode") return s.value === "danger-full-access" ? "allow" : "ask";
  return s.value === "untrusted" || (typeof s.value === "object" && s.value !== null) ? "ask" : "allow";
}

function storeOf(file: CodexStoreFile, paths: Paths, entryCount: number): StoreInfo {
  const format = file.kind === "rules" ? "starlark-rules" : "toml";
  const writable = !file.readOnly && !file.error && (file.layer === "user" || file.layer === "project");
  const broken = file.error;
  const info_: StoreInfo = {
    path: file.path,
    format,
    agent: info.id,
    scope: scopeOfLayer(file.layer),
    version: file.version,
    valid: !broken,
    writable,
    base: file.dir ?? path.resolve(paths.home),
    entryCount: broken ? 0 : entryCount,
  };
  if (broken)
    info_.error =
      file.kind === "rules" && file.active
        ? `line ${broken.line}: ${broken.message} — Codex is ignoring all your rules because of this file`
        : `line ${broken.line}: ${broken.message}`;
  if (!writable && !broken)
    info_.readOnlyReason =
      file.layer === "system" || file.layer === "requirements"
        ? "system file: only an administrator edits it"
        : (file.note ?? "read-only");
  if (!file.active && file.note) info_.inactive = file.note;
  return info_;
}

function missing(
  file: string,
  kind: CodexStoreFile["kind"],
  layer: CodexStoreFile["layer"],
  active: boolean,
  note?: string,
  dir?: string,
): CodexStoreFile {
  return {
    path: file,
    kind,
    layer,
    exists: false,
    active,
    readOnly: false,
    text: "",
    version: "missing",
    ...(note ? { note } : {}),
    ...(dir ? { dir } : {}),
  };
}

/** Every listed store and entry of the Codex stores as read (see io/discover.ts). */
export function codexListing(stores: CodexStores, paths: Paths): CodexListing {
  const files = stores.files.filter((f) => f.kind !== "hooks" && (f.exists || f.layer === "user"));
  const userDefault = path.join(stores.paths.codexHome, "rules", "default.rules");
  if (!files.some((f) => f.path === userDefault)) files.push(missing(userDefault, "rules", "user", true));
  const ws = path.resolve(paths.workspace);
  const wsDefault = path.join(ws, ".codex", "rules", "default.rules");
  if (!files.some((f) => f.path === wsDefault)) {
    const known = stores.files.find((f) => f.dir === ws && f.layer === "project");
    const trusted = known ? known.active : stores.activeTrust === "trusted";
    const note = known?.note ?? `${ws} is not a trusted project: Codex ignores its .codex folder`;
    files.push(missing(wsDefault, "rules", "project", trusted, trusted ? undefined : note, ws));
  }
  // A failed match/not_match example breaks the file just as a syntax error does (Codex rejects it at load).
  const failure = stores.policy.failure;
  const checked = files.map((f) =>
    failure && f.path === failure.file && !f.error
      ? { ...f, error: { line: failure.line, message: failure.message } }
      : f,
  );
  const located: LocatedCodexEntry[] = [];
  const infos: StoreInfo[] = [];
  for (const file of checked) {
    const mine: LocatedCodexEntry[] = [];
    const seen = new Map<string, number>();
    const ref = {
      path: file.path,
      format: file.kind === "rules" ? ("starlark-rules" as const) : ("toml" as const),
      version: file.version,
      valid: !file.error,
    };
    const writable = !file.readOnly && !file.error && (file.layer === "user" || file.layer === "project");
    const push = (
      kind: string,
      action: Entry["action"],
      rule: string,
      tool: string,
      specifier: string,
      line: number,
      target: EntryTarget,
    ) => {
      const key = `${kind}\0${action}\0${rule}`;
      const occurrence = seen.get(key) ?? 0;
      seen.set(key, occurrence + 1);
      mine.push({
        entry: {
          id: entryId(file.path, kind, action, rule, occurrence),
          scope: scopeOfLayer(file.layer),
          kind: "rule",
          agent: info.id,
          action,
          rule,
          tool,
          specifier,
          store: ref,
          line,
          writable,
        },
        file,
        target,
      });
    };
    if (!file.error && file.kind === "rules" && file.rules) {
      for (const call of file.rules.calls) {
        if (call.fn === "prefix_rule" && call.prefixRules[0]) {
          const r = call.prefixRules[0];
          push(
            "prefix",
            TO_ACTION[r.decision],
            prefixRuleText(r.pattern, r.decision),
            "shell",
            patternWords(r.pattern),
            call.source.line,
            { kind: "call", call },
          );
        } else if (call.fn === "network_rule") {
          const n = file.rules.networkRules.find((x) => x.source.line === call.source.line);
          if (n)
            push(
              "network",
              TO_ACTION[n.decision],
              networkRuleText(n),
              "network",
              `${n.protocol}://${n.host}`,
              call.source.line,
              { kind: "call", call },
            );
        }
      }
    }
    if (!file.error && file.kind === "requirements" && file.prefixRules) {
      const done = new Set<string>();
      for (const r of file.prefixRules) {
        const text = prefixRuleText(r.pattern, r.decision);
        const key = `${r.source.line}\0${text}`;
        if (done.has(key)) continue; // one entry per requirement, not per first-position alternative
        done.add(key);
        push("requirement", TO_ACTION[r.decision], text, "shell", patternWords(r.pattern), r.source.line, {
          kind: "requirement",
          rule: r,
        });
      }
    }
    if (!file.error && file.kind === "config" && file.exists) {
      let settings: ConfigSetting[] = [];
      try {
        settings = listSettings(file.text);
      } catch {
        settings = []; // parse errors are the store's `error` already
      }
      for (const s of settings) {
        const key = s.path[s.path.length - 1]!;
        push(
          "setting",
          settingAction(s),
          settingText(s),
          key,
          key === "trust_level" ? s.path[1]! : settingText(s).split(" = ")[1]!,
          s.line,
          { kind: "setting", setting: s },
        );
      }
    }
    infos.push(storeOf(file, paths, mine.length));
    located.push(...mine);
  }
  const banner = stores.policy.failure
    ? `${failureBanner(stores.policy.failure)}. Until it is fixed, every rule in every Codex rules file is ignored, forbidden ones included.`
    : stores.fatal
      ? `Codex would not start because of ${stores.fatal.file}, line ${stores.fatal.line}: ${stores.fatal.message}`
      : undefined;
  return { entries: located.map((l) => l.entry), stores: infos, located, ...(banner ? { banner } : {}) };
}

/** The store infos alone (a decision snapshot lists what it read). */
export function storeInfos(stores: CodexStores, paths: Paths): StoreInfo[] {
  return codexListing(stores, paths).stores;
}
