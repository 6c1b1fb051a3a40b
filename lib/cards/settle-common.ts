import "server-only";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { cards, type CardSettlement, type CardStatus } from "@/db/schema";
import type { AuditActor, Tx } from "@/lib/audit";
import { ConflictError } from "@/lib/errors";
import { afterSettlement } from "./absence";
import { recordCardEvent } from "./events";
import { getCardUnchecked } from "./get-card";

type CardRow = typeof cards.$inferSelect;

/** Why a card can no longer be answered, naming who settled it and when. */
export async function conflictFor(db: DbOrTx, row: CardRow): Promise<ConflictError> {
  const at = row.settledAt?.toISOString() ?? "an unknown time";
  const message =
    row.status === "expired"
      ? `the request expired at ${at} (the user may have been away); nothing was granted`
      : row.status === "aborted"
        ? `the request was answered elsewhere (aborted by the agent) at ${at}; nothing was granted`
        : `already settled by ${row.settledBy ?? "someone"}${row.settlement?.role ? ` (${row.settlement.role})` : ""} at ${at}`;
  return new ConflictError(message, { card: await getCardUnchecked(db, row.id) });
}

/**
 * The exactly-once gate: one conditional UPDATE that only a pending card passes. Returns the updated
 * row, or null when another settlement won. Records the lifecycle event in the same transaction.
 */
export async function settleOnce(
  tx: Tx,
  args: {
    card: CardRow;
    status: Exclude<CardStatus, "pending">;
    by: string;
    via: string;
    settlement: CardSettlement;
    event: "resolved" | "coalesced" | "expired" | "aborted" | "swept";
    now: Date;
    human: boolean;
    /** Who answered, for the audit row: person, role at that moment, session/device, channel, passkey. */
    auditActor?: AuditActor;
  },
): Promise<CardRow | null> {
  const [row] = await tx
    .update(cards)
    .set({
      status: args.status,
      settledBy: args.by,
      settledVia: args.via,
      settledAt: args.now,
      settlement: args.settlement,
    })
    .where(and(eq(cards.id, args.card.id), eq(cards.status, "pending")))
    .returning();
  if (!row) return null;
  await recordCardEvent(tx, {
    cardId: row.id,
    workspaceId: row.workspaceId,
    type: args.event,
    call: { tool: row.tool, input: row.input },
    actor: args.by,
    client: args.via,
    auditActor: args.auditActor,
    detail: {
      outcome: args.settlement.outcome,
      remember: args.settlement.remember,
      source: args.settlement.source,
      tool: row.tool,
      rootSessionId: row.rootSessionId,
      ...(args.settlement.rule ? { rule: args.settlement.rule } : {}),
      ...(args.settlement.message ? { message: args.settlement.message } : {}),
    },
  });
  await afterSettlement(tx, { workspaceId: row.workspaceId, rootSessionId: row.rootSessionId }, args.now, args.human);
  return row;
}
