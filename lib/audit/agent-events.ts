import { z } from "zod";
import type { Db } from "@/db/client";
import { CARD_AGENTS } from "@/lib/agents";
import { auditActor } from "./actor";
import { DECISION_SOURCES, type AuditEvent } from "./events";
import { takeAgentEvents } from "./agent-event-limits";
import { recordAuditBatch } from "./record";
import type { Actor } from "@/lib/auth/actor";
import { TOOL_NAME } from "@/lib/policy/tools";

const s = (max: number) => z.string().trim().min(1).max(max);

/** One tool-call decision an agent reports (`POST /api/agent/v1/events`). */
export const AgentDecisionEvent = z.strictObject({
  /** `decision`: the agent decided; `pre_tool_use` / `post_tool_use`: the call is about to run / ran. */
  kind: z.enum(["decision", "pre_tool_use", "post_tool_use"]).default("decision"),
  sessionId: s(300),
  toolUseId: s(300).optional(),
  /** The agents' tool-name grammar, as on the card API: no hidden characters, no spaces. */
  tool: s(300).regex(TOOL_NAME, "a tool name (letters, digits, _; or mcp__server__tool)"),
  input: z.record(z.string(), z.unknown()).optional(),
  outcome: z.enum(["allow", "deny", "ask"]).optional(),
  source: z.enum(DECISION_SOURCES).optional(),
  /** The rule and store that decided, as the agent names them. */
  rule: s(10_000).optional(),
  store: s(4096).optional(),
  cwd: s(4096).optional(),
  reason: z.string().max(2000).optional(),
  /** When the agent decided (ISO-8601); kept in detail, the row's own time is when the cockpit recorded it. */
  at: z.iso.datetime({ offset: true }).optional(),
});
export const AgentEventsBody = z.strictObject({
  agent: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, `a short agent name like ${CARD_AGENTS.slice(0, 2).join(" or ")}`),
  events: z.array(AgentDecisionEvent).min(1).max(500),
});
export type AgentEventsBody = z.infer<typeof AgentEventsBody>;

const TYPES = {
  decision: "agent.decision",
  pre_tool_use: "agent.pre_tool_use",
  post_tool_use: "agent.post_tool_use",
} as const;

/** Records every reported event in one transaction (all or none), bound to the token's workspace. */
export async function recordAgentEvents(
  db: Db,
  actor: Extract<Actor, { kind: "agent" }>,
  body: AgentEventsBody,
): Promise<{ recorded: number; first: number; last: number }> {
  await takeAgentEvents(db, actor.tokenId, body.events.length);
  const events: AuditEvent[] = body.events.map((e) => ({
    type: TYPES[e.kind],
    actor: auditActor(actor),
    workspaceId: actor.workspaceId,
    outcome: e.outcome ?? (e.kind === "post_tool_use" ? "allow" : null),
    decisionSource: e.source ?? null,
    rule: e.rule ?? null,
    store: e.store ?? null,
    agent: body.agent,
    agentSessionId: e.sessionId,
    toolUseId: e.toolUseId ?? null,
    cwd: e.cwd ?? null,
    tool: e.tool,
    input: e.input ?? null,
    // What the agent says about itself is kept apart from what the cockpit itself knows (a person's answer,
    // passkey, trace): the Audit page shows it as reported, never as a person's.
    detail: { imported: { reportedAt: e.at ?? null, ...(e.reason ? { reason: e.reason } : {}) } },
  }));
  const { first, last } = await db.transaction((tx) => recordAuditBatch(tx, events));
  return { recorded: events.length, first, last };
}
