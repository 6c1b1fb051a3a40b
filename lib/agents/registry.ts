/**
 * The registry: an agent's capabilities by id. The rest of the cockpit asks here and never names an agent. Each
 * capability is loaded when first asked for, so a hook run loads no engine and a page loads no connector.
 */
import { ValidationError } from "@/lib/errors";
import { agent as claudeCode } from "./claude-code/agent";
import { agent as codex } from "./codex/agent";
import { agent as commandCode } from "./commandcode/agent";
import { agent as cursor } from "./cursor/agent";
import { agent as gemini } from "./gemini/agent";
import { AGENT_LIST, type AgentId } from "./index";
import { agent as mevedel } from "./mevedel/agent";
import { agent as simulator } from "./simulator/agent";
import type { AgentAuditLog, AgentConnector, AgentDemo, AgentEngine, AgentModule, AgentStores } from "./types";

const MODULES: readonly AgentModule[] = [claudeCode, commandCode, mevedel, codex, gemini, cursor, simulator];
const BY_ID = new Map(MODULES.map((m) => [m.info.id, m]));

/** Every agent, in the catalogue's order. */
export function agentModules(): readonly AgentModule[] {
  return MODULES;
}

function ids(filter: (m: AgentModule) => boolean): string {
  return MODULES.filter(filter)
    .map((m) => m.info.id)
    .join(", ");
}

/** The agent with this id; an unknown id is bad input (exit 2, 400), naming the ones there are. */
export function agentModule(id: string, need: "engine" | "stores" | "connector" | "auditLog" = "engine"): AgentModule {
  const found = BY_ID.get(id);
  const has = (m: AgentModule) => need === "engine" || Boolean(m[need]);
  if (!found) throw new ValidationError(`unknown agent "${id}" (use ${ids(has)})`);
  if (!has(found)) {
    const what =
      need === "stores" ? "no permission stores" : need === "auditLog" ? "no permission log" : "no hook connector";
    throw new ValidationError(`${found.info.label} has ${what} (use ${ids(has)})`);
  }
  return found;
}

export function engineOf(id: string): Promise<AgentEngine> {
  return agentModule(id).engine();
}

export function storesOf(id: string): Promise<AgentStores> {
  return agentModule(id, "stores").stores!();
}

export function connectorOf(id: string): Promise<AgentConnector> {
  return agentModule(id, "connector").connector!();
}

/** The agent's own permission log (`cockpit audit import`); an agent that keeps none is bad input. */
export function auditLogOf(id: string): Promise<AgentAuditLog> {
  return agentModule(id, "auditLog").auditLog!();
}

/** Agents with stores, in the catalogue's order (listing every agent's entries). */
export function storeAgentIds(): AgentId[] {
  return AGENT_LIST.filter((a) => BY_ID.get(a.id)?.stores).map((a) => a.id);
}

/** Every agent's part in `cockpit demo`, in the catalogue's order. */
export async function agentDemos(): Promise<{ id: AgentId; demo: AgentDemo }[]> {
  const withDemo = AGENT_LIST.flatMap((a) => {
    const load = BY_ID.get(a.id)?.demo;
    return load ? [{ id: a.id, load }] : [];
  });
  return Promise.all(withDemo.map(async ({ id, load }) => ({ id, demo: await load() })));
}
