/**
 * A ladder agent's stores and session rows as the engine's inputs: its stores read through the version cache
 * (lib/stores), merged in precedence order, with what the agent's store semantics hold back (workspace trust,
 * managed-only rules) and its session rules parsed from rows passed in as data.
 */
import path from "node:path";
import { normalizeMode, type Dialect, type Mode } from "@/lib/policy";
import type { ClaudeTrust } from "@/lib/stores/claude-trust";
import type { StorePaths } from "@/lib/stores/discover";
import { discoverStores } from "@/lib/stores/discover";
import { expandHome } from "@/lib/stores/home-paths";
import type { LoadedStore } from "@/lib/stores/load-store";
import { parseAnyRule, type Rule, type RuleSource } from "@/lib/stores/policy-adapter";
import type { SessionRuleRow } from "@/lib/stores/session";
import { loadStoreCached } from "@/lib/stores/store-cache";
import type { Agent, Grant, StoreInfo } from "@/lib/stores/types";

export interface PolicyInputs {
  rules: Rule[];
  sessionRules: Rule[];
  grants: (Grant & { source: RuleSource })[];
  additionalDirectories: string[];
  /** Raw `permissions.defaultMode` of the highest-precedence store that sets one. */
  defaultMode: string | null;
  disableBypass: boolean;
  /** Claude Code `disableAutoMode: "disable"` in any settings file. */
  disableAutoMode: boolean;
  /** Claude Code `allowManagedPermissionRulesOnly` in managed settings: only managed allow rules count. */
  managedRulesOnly: boolean;
  /** Claude Code workspace trust; null for other agents. */
  trust: ClaudeTrust | null;
  /** Allow rules and additional directories the engine holds back (untrusted workspace, managed-only), with why. */
  held: { rules: number; directories: number; why: string } | null;
  stores: StoreInfo[];
}

/** What an agent's settings stores mean beyond their rules: its engine says (lib/agents/<agent>/engine.ts). */
export interface StoreSemantics {
  /** Workspace trust: an untrusted workspace's allow rules and additional directories are held back. */
  trust?: (workspace: string, home: string) => ClaudeTrust;
  /** A managed store's `allowManagedPermissionRulesOnly`: only managed allow rules apply, nothing is remembered. */
  managedRulesOnly?: boolean;
  /** Modes a workspace store's `defaultMode` cannot start (evaluated as default). */
  workspaceModesIgnored?: readonly Mode[];
}

export interface LoadPolicyInputsInput extends StorePaths {
  agent: Agent;
  /** The agent's dialect (its mode names). */
  dialect: Dialect;
  /** Default: none of trust, managed-only rules or ignored workspace modes. */
  semantics?: StoreSemantics;
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

type StorePart = Omit<PolicyInputs, "sessionRules">;

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
  const files = filePart(stores, input.workspace, home, input.dialect, input.semantics ?? {});
  const session = sessionPart(input);
  // allowManagedPermissionRulesOnly: "Claude Code then ignores rules in user, project, local … and stops saving
  // new rules": the cockpit's own session allows are not applied either.
  const sessionRules = files.managedRulesOnly ? session.filter((r) => r.action !== "allow") : session;
  return { ...files, sessionRules };
}

function filePart(
  stores: LoadedStore[],
  workspace: string,
  home: string,
  dialect: Dialect,
  semantics: StoreSemantics,
): StorePart {
  const trust = semantics.trust && stores.length > 0 ? semantics.trust(workspace, home) : null;
  const key = `${dialect.id}\0${path.resolve(workspace)}\0${home}\0${trust ? `${trust.trusted}\0${trust.key}` : ""}\0${stores.map((s) => `${s.info.path}\0${s.info.version}`).join("\0")}`;
  const hit = fileParts.get(key);
  // Reused only for the very same parsed stores (all unchanged, from the cache).
  if (hit && hit.stores.length === stores.length && stores.every((s, i) => hit.stores[i] === s.info)) {
    fileParts.delete(key);
    fileParts.set(key, hit);
    return hit;
  }
  const part = buildFilePart(stores, workspace, home, trust, dialect, semantics);
  fileParts.set(key, part);
  if (fileParts.size > PARTS_MAX) fileParts.delete(fileParts.keys().next().value!);
  return part;
}

function buildFilePart(
  stores: LoadedStore[],
  workspace: string,
  home: string,
  trust: ClaudeTrust | null,
  dialect: Dialect,
  semantics: StoreSemantics,
): StorePart {
  const valid = stores.filter((s) => s.info.valid);
  const additionalDirectories: string[] = [];
  let defaultMode: string | null = null;
  let disableBypass = false;
  let disableAutoMode = false;
  // allowManagedPermissionRulesOnly is a managed-only key.
  const managedRulesOnly =
    semantics.managedRulesOnly === true &&
    valid.some(
      (s) =>
        s.info.scope === "managed" &&
        (s.settings?.allowManagedPermissionRulesOnly === true ||
          (s.settings?.permissions as { allowManagedPermissionRulesOnly?: unknown } | undefined)
            ?.allowManagedPermissionRulesOnly === true),
    );
  const resolvedWorkspace = path.resolve(workspace);
  // Untrusted: the workspace's allow rules and additional directories are held. The local file applies without
  // trust only in the configuration home ("In your configuration home: Claude Code applies … right away").
  const untrusted = (s: LoadedStore): boolean =>
    trust !== null &&
    !trust.trusted &&
    s.info.scope === "workspace" &&
    !(s.info.path.endsWith(".local.json") && resolvedWorkspace === path.resolve(home));
  const held = (s: LoadedStore): boolean => untrusted(s) || (managedRulesOnly && s.info.scope !== "managed");
  let heldRules = 0;
  let heldDirs = 0;
  for (const store of [...valid].sort((a, b) => rank(a) - rank(b))) {
    const permissions = store.settings?.permissions;
    if (permissions?.disableAutoMode || store.settings?.disableAutoMode) disableAutoMode = true;
    if (!permissions && !store.settings?.disableBypass) continue;
    if (defaultMode === null && permissions?.defaultMode)
      defaultMode = workspaceDefaultMode(store, permissions.defaultMode, dialect, semantics);
    if (permissions?.disableBypassPermissionsMode || permissions?.disableBypass || store.settings?.disableBypass)
      disableBypass = true;
    for (const dir of permissions?.additionalDirectories ?? []) {
      if (untrusted(store)) {
        heldDirs++;
        continue;
      }
      const expanded = expandHome(dir, home);
      additionalDirectories.push(
        path.isAbsolute(expanded) ? path.normalize(expanded) : path.resolve(workspace, expanded),
      );
    }
  }
  const rules = valid.flatMap((s) => {
    if (!held(s)) return s.rules;
    const kept = s.rules.filter((r) => r.action !== "allow");
    heldRules += s.rules.length - kept.length;
    return kept;
  });
  const why = [
    trust?.why && valid.some(untrusted) ? `workspace not trusted: ${trust.why}` : null,
    managedRulesOnly ? "managed settings set allowManagedPermissionRulesOnly: only managed allow rules apply" : null,
  ]
    .filter(Boolean)
    .join("; ");
  return {
    rules,
    grants: valid.flatMap((s) => s.grants),
    additionalDirectories: [...new Set(additionalDirectories)],
    defaultMode,
    disableBypass,
    disableAutoMode,
    managedRulesOnly,
    trust,
    held: heldRules || heldDirs ? { rules: heldRules, directories: heldDirs, why } : null,
    stores: stores.map((s) => s.info),
  };
}

/**
 * A workspace store's `defaultMode`, unless it is one the agent ignores there (`workspaceModesIgnored`; Claude
 * Code's auto and bypassPermissions in .claude/settings.json and .claude/settings.local.json, evaluated as default).
 */
function workspaceDefaultMode(store: LoadedStore, raw: string, dialect: Dialect, semantics: StoreSemantics): string {
  const ignored = semantics.workspaceModesIgnored ?? [];
  if (ignored.length === 0 || store.info.scope !== "workspace") return raw;
  const m = normalizeMode(dialect, raw);
  return m.ok && ignored.includes(m.value) ? "default" : raw;
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
