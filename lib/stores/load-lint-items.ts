import path from "node:path";
import type { StorePaths } from "./discover";
import { listEntries, loadAllStores } from "./list-entries";
import { parseAnyRule, parsePlistRule, parseTextRule, type RuleSource } from "./policy-adapter";
import { expandHome } from "./home-paths";
import type { SessionEntrySource } from "./session";
import type { Entry, ParsedEntry, StoreInfo } from "./types";

/**
 * Every entry of every agent and scope with the rule the engine understood, for the hygiene lint. Ids are
 * the ones `listEntries` gives (the Rules page and `cockpit entries`). Reads the files now.
 */
export async function loadLintItems(
  input: StorePaths & { sessionSource?: SessionEntrySource },
): Promise<{ items: ParsedEntry[]; stores: StoreInfo[] }> {
  const home = path.resolve(input.home);
  const loaded = await loadAllStores(input);
  const items: ParsedEntry[] = [];
  for (const store of loaded) {
    const source: RuleSource = { scope: store.info.scope, store: store.info.path, base: store.info.base };
    store.located.forEach(({ entry }, i) => {
      if (store.plist) {
        const raw = store.plist.entries[i];
        if (raw.grant)
          items.push({ entry, rule: null, grant: { ...raw.grant, path: expandHome(raw.grant.path, home) } });
        else if (raw.rule) {
          const r = parsePlistRule(raw.rule, source);
          items.push({ entry, rule: r.ok ? { ...r.value, text: raw.text } : null });
        }
        return;
      }
      const r = parseTextRule(entry.rule, entry.action, entry.agent, source);
      items.push({ entry, rule: r.ok ? r.value : null });
    });
  }
  const stores = loaded.map((s) => s.info);
  if (input.sessionSource) {
    const session = await listEntries({ ...input, scope: "session" });
    for (const entry of session.entries) items.push({ entry, rule: sessionRule(entry, input.workspace) });
    stores.push(...session.stores.filter((s) => s.scope === "session"));
  }
  return { items, stores };
}

function sessionRule(entry: Entry, workspace: string) {
  const r = parseAnyRule(entry.rule, entry.action, entry.agent, {
    scope: "session",
    store: `session:${entry.agentSessionId}`,
    base: path.resolve(workspace),
  });
  return r.ok ? r.value : null;
}
