import { json, route } from "@/lib/http/route";
import { AgentEventsBody, recordAgentEvents } from "@/lib/audit/agent-events";

export const dynamic = "force-dynamic";

/**
 * Tool-call decisions reported by agents without a Claude Code hook (agent token; the token's
 * workspace). `{agent, events:[{kind, sessionId, tool, input?, outcome?, source?, rule?, store?, …}]}`
 * → 201 `{recorded, first, last}` (the audit seqs).
 */
export const POST = route({ access: "agent", body: AgentEventsBody }, async ({ db, actor, body }) => {
  if (actor.kind !== "agent") throw new Error("unreachable: agent access");
  return json(await recordAgentEvents(db, actor, body), 201);
});
