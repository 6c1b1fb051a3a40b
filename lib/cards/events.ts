import "server-only";
import { cardEvents, type CardEventType } from "@/db/schema";
import { namedActor, recordAudit, type AuditActor, type DecisionSource, type Tx } from "@/lib/audit";
import { foldInput } from "./fold-input";

/** How a settlement maps onto Claude Code's `tool_decision` sources. */
/** A card settlement's (or lifecycle detail's) source in Claude Code's `tool_decision` vocabulary. */
export function decisionSourceOf(d: Record<string, unknown>): DecisionSource | null {
  if (d.source === "user") {
    if (d.outcome === "deny") return "user_reject";
    return d.remember === "workspace" ? "user_permanent" : "user_temporary";
  }
  if (d.source === "abort") return "user_abort";
  if (d.source === "policy" || d.source === "recheck") return "config";
  return null;
}

const str = (v: unknown) => (typeof v === "string" ? v : null);

/** The call a card asks about, as audit rows carry it: the tool and its input. */
export interface CardCall {
  tool: string;
  input: Record<string, unknown>;
}

/**
 * The call's columns of a card lifecycle audit row: the tool and the input folded as the card list folds it
 * (a shell command kept whole up to 16 KiB, long contents cut head and tail), so the Audit page shows and its
 * free-text search finds the command a person approved. `detail.inputOmitted` says how much the fold left out.
 */
export function auditedCall(call: CardCall): {
  tool: string;
  input: Record<string, unknown>;
  omitted: Record<string, number>;
} {
  const { input, omitted } = foldInput(call.input);
  return { tool: call.tool, input, omitted: omitted ? { inputOmitted: omitted } : {} };
}

/** Writes one lifecycle event and its audit row, carrying the call; call inside the transaction that made the change. */
export async function recordCardEvent(
  tx: Tx,
  event: {
    cardId: string;
    workspaceId: string;
    type: CardEventType;
    call: CardCall;
    actor: string;
    client?: string | null;
    detail?: Record<string, unknown>;
    /** Who did it, fully attributed (person, role then, session, channel, passkey); default: from `actor`'s name. */
    auditActor?: AuditActor;
  },
): Promise<void> {
  const detail = event.detail ?? {};
  await tx.insert(cardEvents).values({
    cardId: event.cardId,
    workspaceId: event.workspaceId,
    type: event.type,
    actor: event.actor,
    client: event.client ?? null,
    detail,
  });
  const call = auditedCall(event.call);
  await recordAudit(tx, {
    type: `card.${event.type}`,
    actor: event.auditActor ?? namedActor(event.actor, { channel: event.client ?? null }),
    target: event.cardId,
    workspaceId: event.workspaceId,
    outcome: str(detail.outcome),
    decisionSource: decisionSourceOf(detail),
    rule: str(detail.rule),
    agent: str(detail.agent),
    agentSessionId: str(detail.sessionId) ?? str(detail.rootSessionId),
    tool: call.tool,
    input: call.input,
    detail: { client: event.client ?? null, ...detail, ...call.omitted },
  });
}
