import "server-only";
import type { DbOrTx } from "@/db/client";
import { cardEvents, type CardEventType } from "@/db/schema";
import { inTransaction, namedActor, recordAudit, type AuditActor, type DecisionSource } from "@/lib/audit";

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

/** Writes one lifecycle event and its audit row; call inside the transaction that made the change. */
export async function recordCardEvent(
  tx: DbOrTx,
  event: {
    cardId: string;
    workspaceId: string;
    type: CardEventType;
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
  await inTransaction(tx, (t) =>
    recordAudit(t, {
      type: `card.${event.type}`,
      actor: event.auditActor ?? namedActor(event.actor, { channel: event.client ?? null }),
      target: event.cardId,
      workspaceId: event.workspaceId,
      outcome: str(detail.outcome),
      decisionSource: decisionSourceOf(detail),
      rule: str(detail.rule),
      agent: str(detail.agent),
      agentSessionId: str(detail.sessionId) ?? str(detail.rootSessionId),
      tool: str(detail.tool),
      detail: { client: event.client ?? null, ...detail },
    }),
  );
}
