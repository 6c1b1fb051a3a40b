import "server-only";
import { and, desc, eq, gte, isNotNull, or, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { cards } from "@/db/schema";
import { auditActor, recordAudit, type DecisionSource } from "@/lib/audit";
import type { Actor } from "@/lib/auth/actor";
import { takeAgentEvents } from "@/lib/audit/agent-event-limits";
import { ValidationError } from "@/lib/errors";
import { revealHidden } from "@/lib/text/reveal";
import { decisionSourceOf } from "./events";
import { TOOL_NAME } from "@/lib/policy/tools";

const AUDIT_INPUT_LIMIT = 20_000;
/** How far back a PostToolUse looks for the card that let the call through. */
const CARD_WINDOW_MS = 30 * 60_000;

export interface ReachedDecision {
  outcome: "allow";
  source: DecisionSource;
  rule: string | null;
  cardId: string | null;
}

/**
 * What the agent decided for a call that ran (PostToolUse fires only after the tool ran, so: allow),
 * and why: the latest settled card of this session for the same tool and input names the source
 * (a person once/for the session → user_temporary, always → user_permanent, the policy → config). A
 * card retired because the terminal answered first means the person allowed it there (user_temporary).
 * No card: the agent's own rules or mode allowed it without asking (config).
 */
export async function reachedDecision(
  db: DbOrTx,
  args: { workspaceId: string; sessionId: string; tool: string | null; input: Record<string, unknown>; now?: Date },
): Promise<ReachedDecision> {
  if (!args.tool) return { outcome: "allow", source: "config", rule: null, cardId: null };
  const since = new Date((args.now ?? new Date()).getTime() - CARD_WINDOW_MS);
  const [card] = await db
    .select({ id: cards.id, status: cards.status, settlement: cards.settlement })
    .from(cards)
    .where(
      and(
        eq(cards.workspaceId, args.workspaceId),
        or(eq(cards.agentSessionId, args.sessionId), eq(cards.rootSessionId, args.sessionId)),
        eq(cards.tool, args.tool),
        sql`${cards.input} = ${JSON.stringify(args.input)}::jsonb`,
        isNotNull(cards.settledAt),
        gte(cards.settledAt, since),
      ),
    )
    .orderBy(desc(cards.settledAt))
    .limit(1);
  if (!card) return { outcome: "allow", source: "config", rule: null, cardId: null };
  const s = card.settlement;
  if (card.status === "aborted" || !s)
    return { outcome: "allow", source: "user_temporary", rule: null, cardId: card.id };
  const source = decisionSourceOf({ ...s, outcome: "allow" }) ?? "config";
  return {
    outcome: "allow",
    source: source === "user_abort" ? "user_temporary" : source,
    rule: s.rule ?? null,
    cardId: card.id,
  };
}

/**
 * Records a PreToolUse/PostToolUse hook call in the audit log; inputs over 20,000 characters are left
 * out, not cut. PostToolUse also carries the decision the agent reached and its source.
 */
export async function recordToolUse(
  db: DbOrTx,
  {
    actor,
    workspaceId,
    agent,
    event,
    sessionId,
    tool,
    input,
    toolUseId,
    cwd,
    now,
  }: {
    actor: Actor;
    workspaceId: string;
    /** The agent that ran the call (its id in the catalogue). */
    agent: string;
    event: "PreToolUse" | "PostToolUse";
    sessionId: string;
    tool: string | null;
    input: Record<string, unknown>;
    toolUseId?: string | null;
    cwd?: string | null;
    /** The clock cards were settled by (tests). */
    now?: Date;
  },
): Promise<void> {
  if (tool !== null && !TOOL_NAME.test(tool))
    throw new ValidationError(`tool_name: "${revealHidden(tool.slice(0, 80))}" is not a tool name`);
  if (actor.kind === "agent") await takeAgentEvents(db, actor.tokenId, 1);
  const fits = JSON.stringify(input).length <= AUDIT_INPUT_LIMIT;
  const reached =
    event === "PostToolUse" ? await reachedDecision(db, { workspaceId, sessionId, tool, input, now }) : null;
  await db.transaction((tx) =>
    recordAudit(tx, {
      type: event === "PreToolUse" ? "agent.pre_tool_use" : "agent.post_tool_use",
      actor: auditActor(actor, { channel: "hook" }),
      workspaceId,
      agent,
      agentSessionId: sessionId,
      toolUseId: toolUseId ?? null,
      cwd: cwd ?? null,
      tool,
      input: fits ? input : null,
      outcome: reached?.outcome ?? null,
      decisionSource: reached?.source ?? null,
      rule: reached?.rule ?? null,
      target: reached?.cardId ?? null,
      detail: {
        agent,
        sessionId,
        tool,
        ...(fits ? {} : { inputTruncated: true }),
        ...(reached ? { reached: { outcome: reached.outcome, source: reached.source, cardId: reached.cardId } } : {}),
      },
    }),
  );
}
