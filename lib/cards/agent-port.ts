import "server-only";
import type { Db } from "@/db/client";
import type { CockpitPort } from "@/lib/agents/types";
import type { AgentActor } from "@/lib/auth/actor";
import { abortCard } from "./abort-card";
import { admitCard, type AdmitCardInput } from "./admit-card";
import { recordToolUse } from "./record-tool-use";
import { userMessage } from "./user-message";
import { waitForSettlement } from "./wait-for-settlement";

/**
 * The cockpit as an agent's HTTP hook reaches it: the card verbs in this process, as the agent token's actor. The
 * command hook reaches the same verbs over the agent API (lib/cli/hook-port.ts).
 */
export function inProcessPort(db: Db, actor: AgentActor): CockpitPort {
  const workspaceId = actor.workspaceId;
  return {
    async admit(card) {
      const admitted = await admitCard({ db, actor, workspaceId, input: card as AdmitCardInput });
      if (admitted.status === "pending") return { status: "pending", id: admitted.id };
      return { status: "settled", decision: admitted.decision.decision, reason: admitted.decision.reason };
    },
    wait: (cardId, waitSeconds, signal) => waitForSettlement({ db, actor, cardId, waitSeconds, signal }),
    async abort(cardId) {
      await abortCard({ db, actor, cardId });
    },
    async userMessage(sessionId) {
      await userMessage({ db, actor, workspaceId, rootSessionId: sessionId });
    },
    toolUse: (agent, e) =>
      recordToolUse(db, {
        actor,
        workspaceId,
        agent,
        event: e.phase === "pre" ? "PreToolUse" : "PostToolUse",
        sessionId: e.sessionId,
        tool: e.tool,
        input: e.input,
        toolUseId: e.toolUseId ?? null,
        cwd: e.cwd ?? null,
      }),
  };
}
