import type { DbOrTx } from "@/db/client";
import { ForbiddenError } from "@/lib/errors";
import { can, type Permission } from "./access";
import type { Actor } from "./actor";
import { currentPerson } from "./sessions";

/**
 * Re-reads a person's rights inside a transaction (a removal or a lowered role applies to requests
 * already in flight). Other actors carry no stored rights to change.
 */
export async function recheckRight(
  tx: DbOrTx,
  actor: Actor,
  action: Permission,
  workspaceId: string | null,
): Promise<void> {
  // The owner cannot be removed or demoted; other actors carry no stored rights that could change.
  if (actor.kind !== "user" || actor.owner) return;
  const current = await currentPerson(tx, actor);
  if (!current) throw new ForbiddenError("your access was removed or your session ended");
  const decision = can({ ...actor, ...current }, action, workspaceId);
  if (!decision.ok) throw new ForbiddenError(decision.reason, { needed: decision.needed });
}

export const recheckAnswerRight = (tx: DbOrTx, actor: Actor, workspaceId: string) =>
  recheckRight(tx, actor, "card.answer", workspaceId);
