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
