/**
 * The one decision pipeline: an agent's stores and the session rows → a snapshot → a decision and what remembering
 * would store. The CLI `decide`, admission, the approval's re-check and sibling coalescing all go through it; the
 * agent's own engine (lib/agents/<agent>) does the deciding, this adds what holds for every agent (the floor).
 */
import { agentLabel } from "@/lib/agents";
import { engineOf } from "@/lib/agents/registry";
import type { AgentSnapshot, DecideRequest, LoadInput, RememberOffer } from "@/lib/agents/types";
import type { Decision } from "@/lib/policy";

export interface Evaluation {
  decision: Decision;
  modeBase: string;
  modeEffective: string;
  remember: RememberOffer;
  /** The agent whose stores and session rules decided (the snapshot's): session entries are stored under it. */
  rulesAgent: string;
}

export interface EvaluateRequest extends DecideRequest {
  /**
   * The agent itself decided to ask (Claude Code's PermissionRequest, Codex's): it already weighed the rules in its
   * own files, so those never turn this into an allow (the floor, see `agentFloor`).
   */
  agentAsked?: boolean;
  /** Rules a person just saved through the cockpit (coalescing after an answer): authority the floor accepts. */
  savedRules?: readonly string[];
}

const NOTHING: RememberOffer = { session: [], workspace: [], workspaceStore: null };

/** Everything one agent's decisions in one workspace need, read once (see the agent's engine). */
export async function loadSnapshot(agent: string, input: LoadInput): Promise<AgentSnapshot> {
  return (await engineOf(agent)).load(input);
}

/** The why-line a floored card shows. */
export function agentAskedReason(agent: string): string {
  return `${agentLabel(agent)} asked; no rule of the cockpit's may approve it`;
}

/**
 * The floor: when the agent itself asked, an allow stands only on authority the cockpit holds itself — an answer a
 * person gave in the cockpit ("allow for this session": a session entry in the cockpit's database) or a rule a
 * person has just saved through the cockpit while this card waited. Rules in the agent's own settings files were
 * already weighed by the agent, which still asked: if they seem to allow, the emulation is wrong, not the agent, so
 * the card waits for a person. Denies stand (the cockpit may be stricter).
 */
export function agentFloor(
  d: Decision,
  { agent, agentAsked, savedRules }: { agent: string; agentAsked?: boolean; savedRules?: readonly string[] },
): Decision {
  if (!agentAsked || d.decision !== "allow") return d;
  if (d.scope === "session" || d.store?.startsWith("session:")) return d;
  if (d.rule !== null && savedRules?.includes(d.rule)) return d;
  const why = agentAskedReason(agent);
  return {
    ...d,
    decision: "ask",
    reason: `${why} (the cockpit's reading: ${d.reason})`,
    trace: [...d.trace, { step: d.step, outcome: "decided", why }],
  };
}

/**
 * Current policy for a call a person is asked about, from a snapshot: the agent's decision for an asked call, the
 * floor, and — when it still asks and is no safety check — what each remembering choice would store. No I/O.
 */
export function evaluateWith(snapshot: AgentSnapshot, req: EvaluateRequest): Evaluation {
  const { decision: asked, modeBase, modeEffective } = snapshot.decideAsked(req);
  const decision = agentFloor(asked, {
    agent: snapshot.agent,
    agentAsked: req.agentAsked,
    savedRules: req.savedRules,
  });
  const remember = decision.decision === "ask" && !decision.safetyCheck ? snapshot.remember(req, decision) : NOTHING;
  return { decision, modeBase, modeEffective, remember, rulesAgent: snapshot.agent };
}
