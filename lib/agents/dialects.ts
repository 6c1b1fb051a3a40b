/**
 * The dialects lib/policy decides in, by agent id: each agent's own (lib/agents/<agent>/dialect.ts), the one of the
 * agent whose rules it uses (`rulesOf`), else the settings family's. Pure data, in the engine layer: lib/stores and
 * lib/hygiene, which hold agent ids, find the dialect here. Adding an agent decided by lib/policy: one line here.
 */
import type { Agent, Dialect } from "@/lib/policy";
import { dialect as claudeCode } from "./claude-code/dialect";
import { dialect as commandCode } from "./commandcode/dialect";
import { agentInfo, rulesAgentOf } from "./index";
import { dialect as mevedel } from "./mevedel/dialect";
import { settingsDialect } from "./shared/dialect";

const DIALECTS: readonly Dialect[] = [claudeCode, commandCode, mevedel];
const BY_ID = new Map<string, Dialect>(DIALECTS.map((d) => [d.id, d]));

/**
 * The dialect of this agent's rules. An agent with an engine of its own (its rules never reach lib/policy's ladder)
 * gets the settings family's, so text that names it still parses as before; the object is the same on every call.
 */
export function dialectOf(id: string): Dialect {
  const found = BY_ID.get(rulesAgentOf(id));
  if (found) return found;
  const info = agentInfo(id);
  const made = settingsDialect(id as Agent, info?.label ?? id);
  if (info) BY_ID.set(id, made);
  return made;
}

/** The dialect whose stores hold plist rule forms (a store of rule forms is read in it). */
export function plistDialect(): Dialect {
  return DIALECTS.find((d) => d.rules.form === "plist")!;
}
