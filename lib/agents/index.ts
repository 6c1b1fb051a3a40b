/**
 * The one list of agents the cockpit knows. Everything else derives from it: the engine's dialects
 * (lib/policy `Agent`), the store agents (discovery, the Rules page, session entries, CLI flags), the
 * agents that may admit cards (the agent API, `cockpit simulate`) and the UI's labels.
 * Pure data: lib/policy and browser code import it. Adapter code lives beside it (lib/agents/claude-code/).
 */
export const AGENT_LIST = [
  { id: "claude-code", label: "Claude Code", dialect: "claude-code", stores: "json" },
  { id: "commandcode", label: "Command Code", dialect: "commandcode", stores: "json" },
  { id: "mevedel", label: "mevedel", dialect: "mevedel", stores: "plist" },
  // Demo agent: speaks Claude Code's dialect (Bash, Edit, …) so demos exercise real rules; has no stores.
  { id: "simulator", label: "Simulator", dialect: "claude-code", stores: null },
] as const;

type AgentInfo = (typeof AGENT_LIST)[number];
/** Every agent that may admit a card. */
export type CardAgent = AgentInfo["id"];
/** Agents with their own permission stores; their rule dialects are the engine's. */
export type StoreAgent = Extract<AgentInfo, { stores: "json" | "plist" }>["id"];

type NonEmpty<T> = readonly [T, ...T[]];
export const CARD_AGENTS = AGENT_LIST.map((a) => a.id) as unknown as NonEmpty<CardAgent>;
export const STORE_AGENTS = AGENT_LIST.filter((a) => a.stores !== null).map(
  (a) => a.id,
) as unknown as NonEmpty<StoreAgent>;

/** The dialect the engine decides an agent's calls in (unknown names: Claude Code's). */
export function dialectOf(agent: string): StoreAgent {
  return (AGENT_LIST.find((a) => a.id === agent)?.dialect ?? "claude-code") as StoreAgent;
}

export function agentLabel(agent: string): string {
  return AGENT_LIST.find((a) => a.id === agent)?.label ?? agent;
}
