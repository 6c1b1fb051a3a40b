import path from "node:path";
import type { StorePaths } from "./discover";
import { loadAllStores } from "./list-entries";
import { expandHome } from "./home-paths";
import type { LoadedStore } from "./load-store";
import { parseAnyRule, type Rule, type RuleSource } from "./policy-adapter";
import type { SessionEntrySource } from "./session";
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
  sessionSource?: SessionEntrySource;
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

/** Everything the engine needs from an agent's stores; invalid stores contribute nothing. */
export async function loadPolicyInputs(input: LoadPolicyInputsInput): Promise<PolicyInputs> {
  const home = path.resolve(input.home);
  const stores = await loadAllStores({ ...input, agent: input.agent });
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
        path.isAbsolute(expanded) ? path.normalize(expanded) : path.resolve(input.workspace, expanded),
      );
    }
  }
  const sessionRules: Rule[] = [];
  if (input.sessionSource) {
    for (const row of await input.sessionSource.list()) {
      if (row.agent !== input.agent || (input.sessionId && row.agentSessionId !== input.sessionId)) continue;
      const parsed = parseAnyRule(row.rule, row.action, row.agent, {
        scope: "session",
        store: `session:${row.agentSessionId}`,
        base: path.resolve(input.workspace),
      });
      if (parsed.ok) sessionRules.push(parsed.value);
    }
  }
  return {
    rules: valid.flatMap((s) => s.rules),
    sessionRules,
    grants: valid.flatMap((s) => s.grants),
    additionalDirectories: [...new Set(additionalDirectories)],
    defaultMode,
    disableBypass,
    stores: stores.map((s) => s.info),
  };
}
