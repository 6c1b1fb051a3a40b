/**
 * The agent catalogue: every agent the cockpit knows, as pure data (ids, names, capabilities). Browser code and
 * lib/policy may import it. Each entry comes from the agent's own folder (lib/agents/<agent>/info.ts); its
 * capabilities (engine, stores, connector) are in lib/agents/registry.ts. Adding an agent: its folder, one line here,
 * one line in the registry, its docs (docs/conventions.md, "Adding an agent").
 */
import { info as claudeCode } from "./claude-code/info";
import { info as codex } from "./codex/info";
import { info as commandCode } from "./commandcode/info";
import { info as cursor } from "./cursor/info";
import { info as gemini } from "./gemini/info";
import { info as mevedel } from "./mevedel/info";
import { info as simulator } from "./simulator/info";
import type { AgentInfo, RuleTraits } from "./info";

export const AGENT_LIST = [claudeCode, commandCode, mevedel, codex, gemini, cursor, simulator] as const;

type Listed = (typeof AGENT_LIST)[number];
/** Every agent that may admit a card. */
export type AgentId = Listed["id"];
export type CardAgent = AgentId;
/** Agents with their own permission stores. */
export type StoreAgent = Extract<Listed, { hasStores: true }>["id"];
/** Agents with a hook connector (`cockpit connect|hook <agent>`). */
export type ConnectorAgent = Extract<Listed, { hasConnector: true }>["id"];

type NonEmpty<T> = readonly [T, ...T[]];
export const CARD_AGENTS = AGENT_LIST.map((a) => a.id) as unknown as NonEmpty<CardAgent>;
export const STORE_AGENTS = AGENT_LIST.filter((a) => a.hasStores).map((a) => a.id) as unknown as NonEmpty<StoreAgent>;
/** Agents that keep their own permission log (`cockpit audit import --agent <id>`). */
export type AuditLogAgent = Extract<Listed, { auditLog: object }>["id"];
export const AUDIT_LOG_AGENTS = AGENT_LIST.filter((a: AgentInfo) => a.auditLog).map(
  (a) => a.id,
) as unknown as NonEmpty<AuditLogAgent>;
export const CONNECTOR_AGENTS = AGENT_LIST.filter((a) => a.hasConnector).map(
  (a) => a.id,
) as unknown as NonEmpty<ConnectorAgent>;

/**
 * The agent examples and samples show (`connect` on the empty Cards page, a test notification's card): the
 * catalogue's first agent with a connector.
 */
export const EXAMPLE_AGENT: AgentInfo = AGENT_LIST.find((a) => a.hasConnector)!;

/** The stand-in for demos (`demo: true`): the agent `cockpit simulate` plays unless its script names another. */
export const DEMO_AGENT: AgentInfo = AGENT_LIST.find((a: AgentInfo) => a.demo)!;

export function isAgentId(id: string): id is AgentId {
  return AGENT_LIST.some((a) => a.id === id);
}

export function agentInfo(id: string): AgentInfo | undefined {
  return AGENT_LIST.find((a) => a.id === id);
}

/** The agent whose stores and session rules decide this agent's calls (itself, or `rulesOf`). */
export function rulesAgentOf(id: string): string {
  const info = agentInfo(id);
  return (info && "rulesOf" in info ? info.rulesOf : undefined) ?? id;
}

/** The agent's name for people (unknown ids as given: imported or reported events may name any agent). */
export function agentLabel(id: string): string {
  return agentInfo(id)?.label ?? id;
}

/**
 * Whether an allow given in the cockpit approves this agent's call (its hook can approve), and if not, the one line a
 * card shows instead of Allow buttons. Unknown ids can be allowed (imported events name any agent; no card of theirs).
 */
export function allowFromCockpit(id: string): { ok: true } | { ok: false; note: string } {
  const info: AgentInfo | undefined = agentInfo(id);
  if (info?.canAllowFromCockpit !== false) return { ok: true };
  return {
    ok: false,
    note: info.approveNote ?? `${info.label} can only be denied from here: approve it where it runs.`,
  };
}

const DENY_FIRST: RuleTraits = { precedence: "deny-first" };
const TRAITS = new Map(
  (AGENT_LIST as readonly AgentInfo[]).flatMap((a) => (a.ruleTraits ? [[a.id, a.ruleTraits] as const] : [])),
);

/** How the hygiene lint reads this agent's rules (deny-first, nothing special, when the catalogue says nothing). */
export function ruleTraitsOf(id: string): RuleTraits {
  return TRAITS.get(id) ?? DENY_FIRST;
}

export type { AgentInfo, RuleTraits, SettingsFile } from "./info";
