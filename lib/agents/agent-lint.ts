/**
 * Hygiene findings of agents that lint their own rules (`AgentStores.lint`: agents whose rules lib/hygiene does not
 * read), for the Rules page's hygiene and `cockpit lint`. Nothing here knows which agents those are.
 */
import type { Finding } from "@/lib/hygiene/types";
import { storeAgentIds, storesOf } from "./registry";
import type { StoreScope } from "./types";

export async function agentLintFindings(scope: StoreScope): Promise<{ findings: Finding[]; entries: number }> {
  const findings: Finding[] = [];
  let entries = 0;
  for (const id of storeAgentIds()) {
    const stores = await storesOf(id);
    if (!stores.lint) continue;
    const r = await stores.lint(scope);
    findings.push(...r.findings);
    entries += r.entries;
  }
  return { findings, entries };
}

/**
 * The loudest state of each agent's whole policy, from its own listing (`StoreListing.banner`: Codex ignoring every
 * rule because one rules file failed to load), in the catalogue's order; `agent` keeps one agent's. Only agents with
 * at least one of the person's files present (not only built-in defaults): a banner about an agent nobody uses here is noise.
 */
export async function agentBanners(scope: StoreScope, agent?: string): Promise<string[]> {
  const banners: string[] = [];
  for (const id of storeAgentIds()) {
    if (agent && id !== agent) continue;
    const { banner, stores } = await (await storesOf(id)).list(scope);
    // A file of the person's: not a missing one, not the agent's built-in defaults, not the cockpit's database.
    const present = stores.some((s) => !["missing", "builtin", "database"].includes(s.version));
    if (banner && present) banners.push(banner);
  }
  return banners;
}
