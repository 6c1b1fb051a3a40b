import path from "node:path";
import type { StorePaths } from "./discover";
import { discoverStores } from "./discover";
import { expandHome } from "./home-paths";
import type { LoadedStore } from "./load-store";
import { parseAnyRule, type Rule, type RuleSource } from "./policy-adapter";
import type { SessionRuleRow } from "./session";
import { loadStoreCached } from "./store-cache";
import type { Agent, Grant, StoreInfo } from "./types";

export interface PolicyInputs {
  rules: Rule[];
  sessionRules: Rule[];
  grants: (Grant & { source: RuleSource })[];
  additionalDirectories: string[];
  /** Raw `permissions.defaultMode` of the highest-precedence store that sets one. */
  defaultMode: string | null;
  disableBypass: boolean;
  stores: StoreInfo[];
}

export interface LoadPolicyInputsInput extends StorePaths {
  agent: Agent;
  /** Session entries as data (the database's rows); only this agent's rows of `sessionId` become rules. */
  sessionRows?: readonly SessionRuleRow[];
  /** Only session rows of this agent session become session rules. */
  sessionId?: string;
}

// Highest precedence first: managed, then the personal local file, then the project file, then global.
const PRECEDENCE = ["managed", "local", "workspace", "global"] as const;
const rank = (s: LoadedStore) =>
  PRECEDENCE.indexOf(
    s.info.scope === "managed"
      ? "managed"
      : s.info.path.endsWith(".local.json")
        ? "local"
        : s.info.scope === "workspace"
          ? "workspace"
          : "global",
  );

interface StorePart {
  rules: Rule[];
  grants: (Grant & { source: RuleSource })[];
  additionalDirectories: string[];
  defaultMode: string | null;
  disableBypass: boolean;
  stores: StoreInfo[];
}

// The file part of the inputs for one set of parsed stores: the same LoadedStore objects (unchanged
// files) give the same arrays, so the engine's compiled rule index (cached per rules array) is reused.
const fileParts = new Map<string, StorePart>();
// Session rules by their rows' content, so an unchanged session keeps its array too.
const sessionParts = new Map<string, Rule[]>();
const PARTS_MAX = 256;

/**
 * Everything the engine needs from an agent's stores; invalid stores contribute nothing. Stores come
 * from the version cache (lib/stores/store-cache.ts): a file whose stat is unchanged is not read again.
 */
export async function loadPolicyInputs(input: LoadPolicyInputsInput): Promise<PolicyInputs> {
  const home = path.resolve(input.home);
  const stores = await Promise.all(discoverStores(input, input.agent).map((loc) => loadStoreCached(loc, home)));
  const files = filePart(stores, input.workspace, home);
  const sessionRules = sessionPart(input);
  return { ...files, sessionRules };
}

function filePart(stores: LoadedStore[], workspace: string, home: string): StorePart {
  const key = `${path.resolve(workspace)}\0${home}\0${stores.map((s) => `${s.info.path}\0${s.info.version}`).join("\0")}`;
  const hit = fileParts.get(key);
  // Reused only for the very same parsed stores (all unchanged, from the cache).
  if (hit && hit.stores.length === stores.length && stores.every((s, i) => hit.stores[i] === s.info)) {
    fileParts.delete(key);
    fileParts.set(key, hit);
    return hit;
  }
  const part = buildFilePart(stores, workspace, home);
  fileParts.set(key, part);
  if (fileParts.size > PARTS_MAX) fileParts.delete(fileParts.keys().next().value!);
  return part;
}

function buildFilePart(stores: LoadedStore[], workspace: string, home: string): StorePart {
  const valid = stores.filter((s) => s.info.valid);
  const additionalDirectories: string[] = [];
  let defaultMode: string | null = null;
  let disableBypass = false;
  for (const store of [...valid].sort((a, b) => rank(a) - rank(b))) {
    const permissions = store.settings?.permissions;
    if (!permissions && !store.settings?.disableBypass) continue;
    if (defaultMode === null && permissions?.defaultMode) defaultMode = permissions.defaultMode;
    if (permissions?.disableBypassPermissionsMode || permissions?.disableBypass || store.settings?.disableBypass)
      disableBypass = true;
    for (const dir of permissions?.additionalDirectories ?? []) {
      const expanded = expandHome(dir, home);
      additionalDirectories.push(
        path.isAbsolute(expanded) ? path.normalize(expanded) : path.resolve(workspace, expanded),
      );
    }
  }
  return {
    rules: valid.flatMap((s) => s.rules),
    grants: valid.flatMap((s) => s.grants),
    additionalDirectories: [...new Set(additionalDirectories)],
    defaultMode,
    disableBypass,
    stores: stores.map((s) => s.info),
  };
}

function sessionPart(input: LoadPolicyInputsInput): Rule[] {
  const rows = (input.sessionRows ?? []).filter(
    (row) => row.agent === input.agent && (!input.sessionId || row.agentSessionId === input.sessionId),
  );
  if (rows.length === 0) return [];
  const base = path.resolve(input.workspace);
  const key = `${base}\0${rows.map((r) => `${r.id}\0${r.agentSessionId}\0${r.action}\0${r.rule}`).join("\0")}`;
  const hit = sessionParts.get(key);
  if (hit) return hit;
  const rules: Rule[] = [];
  for (const row of rows) {
    const parsed = parseAnyRule(row.rule, row.action, input.agent, {
      scope: "session",
      store: `session:${row.agentSessionId}`,
      base,
    });
    if (parsed.ok) rules.push(parsed.value);
  }
  sessionParts.set(key, rules);
  if (sessionParts.size > PARTS_MAX) sessionParts.delete(sessionParts.keys().next().value!);
  return rules;
}
