import type { DbOrTx } from "@/db/client";
import { auditEvents, cardEvents, type CardEventType } from "@/db/schema";

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
  await tx.insert(auditEvents).values({
    actor: event.actor,
    action: `card.${event.type}`,
    target: event.cardId,
    workspaceId: event.workspaceId,
    detail: { client: event.client ?? null, ...detail },
  });
}
