import { assertNoSymlinks } from "./atomic-write";
import { expandHome } from "./home-paths";
import type { StoreLocation } from "./discover";
import { parseJsonSettings, type JsonSettings } from "./json-format";
import { parsePlistStore, type PlistDocument, type PlistRawEntry } from "./plist-format";
import { parsePlistRule, parseTextRule, specifierText, type Rule, type RuleSource } from "./policy-adapter";
import { lineIndex, readStoreBytes, sha256, type StoreBytes } from "./read-store";
import type { Entry, EntryKind, Grant, GrantView, LocatedEntry, StoreInfo } from "./types";

export interface LoadedStore {
  location: StoreLocation;
  info: StoreInfo;
  bytes: StoreBytes;
  located: LocatedEntry[];
  settings?: JsonSettings;
  plist?: { doc: PlistDocument; entries: PlistRawEntry[] };
  /** Rules the engine understood (malformed ones are listed but not enforced). */
  rules: Rule[];
  grants: (Grant & { source: RuleSource })[];
}

export function entryId(storePath: string, kind: EntryKind, action: string, text: string, occurrence: number): string {
  return sha256(`${storePath}\0${kind}\0${action}\0${text}\0${occurrence}`).slice(0, 16);
}

const label = (g: Grant): GrantView => ({ ...g, label: g.recursive ? "recursive" : "exact" });

/** Read and parse one store; never throws for bad content (the store is then listed invalid). */
export async function loadStore(location: StoreLocation, home: string): Promise<LoadedStore> {
  return parseStore(location, await readStoreBytes(location.path), home);
}

/** Parse one store's bytes (as read, or as just written); checks the path for symlinks, reads nothing. */
export async function parseStore(location: StoreLocation, bytes: StoreBytes, home: string): Promise<LoadedStore> {
  const info: StoreInfo = {
    path: location.path,
    format: location.format,
    agent: location.agent,
    scope: location.scope,
    version: bytes.version,
    valid: true,
    writable: !location.readOnly,
    base: location.base,
    entryCount: 0,
  };
  const loaded: LoadedStore = { location, info, bytes, located: [], rules: [], grants: [] };
  const invalid = (error: string) => {
    info.valid = false;
    info.error = error;
    info.writable = false;
    return loaded;
  };
  if (bytes.decodeError) return invalid(bytes.decodeError);
  if (location.readOnly) info.readOnlyReason = "managed settings are read-only";
  else if (location.root) {
    try {
      await assertNoSymlinks(location.root, location.path);
    } catch (error) {
      info.writable = false;
      info.readOnlyReason = (error as Error).message;
    }
  }
  const source: RuleSource = { scope: location.scope, store: location.path, base: location.base };
  const lineAt = lineIndex(bytes.text);
  const seen = new Map<string, number>();
  const storeRef = () => ({ path: info.path, format: info.format, version: info.version, valid: info.valid });
  const makeEntry = (kind: EntryKind, action: Entry["action"], text: string, start: number): Entry => {
    const key = `${kind}\0${action}\0${text}`;
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    return {
      id: entryId(location.path, kind, action, text, occurrence),
      scope: location.scope,
      kind,
      agent: location.agent,
      action,
      rule: text,
      tool: null,
      specifier: null,
      store: storeRef(),
      line: lineAt(start),
      writable: info.writable,
    };
  };

  if (location.format === "mevedel-plist") {
    const parsed = parsePlistStore(bytes.text);
    if (!parsed.ok) return invalid(parsed.error);
    loaded.plist = { doc: parsed.doc, entries: parsed.entries };
    for (const raw of parsed.entries) {
      const entry = makeEntry(raw.kind, raw.action, raw.text, raw.start);
      if (raw.grant) {
        entry.grant = label(raw.grant);
        entry.tool = null;
        entry.specifier = raw.grant.path;
        loaded.grants.push({ ...raw.grant, path: expandHome(raw.grant.path, home), source });
      } else if (raw.rule) {
        const result = parsePlistRule(raw.rule, source, location.agent);
        if (result.ok) {
          entry.tool = result.value.tool;
          entry.specifier = specifierText(result.value.specifier);
          loaded.rules.push({ ...result.value, text: raw.text });
        } else {
          entry.tool = raw.rule.tool;
          entry.malformed = result.error;
        }
        if (raw.kind === "profile") {
          entry.profile = { network: raw.rule.network === true, fileSystem: (raw.rule.fileSystem ?? []).map(label) };
        }
      }
      loaded.located.push({ entry, location: { start: raw.start, end: raw.end, list: raw.list } });
    }
  } else {
    const parsed = parseJsonSettings(bytes.text, location.format === "claude-json");
    if (!parsed.ok) return invalid(parsed.error);
    loaded.settings = parsed.settings;
    for (const raw of parsed.entries) {
      const entry = makeEntry("rule", raw.action, raw.text, raw.start);
      const result = parseTextRule(raw.text, raw.action, location.agent, source);
      if (result.ok) {
        entry.tool = result.value.tool;
        entry.specifier = specifierText(result.value.specifier);
        loaded.rules.push(result.value);
      } else entry.malformed = result.error;
      loaded.located.push({ entry, location: { start: raw.start, end: raw.end, index: raw.index } });
    }
  }
  info.entryCount = loaded.located.length;
  return loaded;
}
