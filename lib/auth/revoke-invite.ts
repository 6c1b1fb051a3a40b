import "server-only";
import { and, eq, gt, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { invites } from "@/db/schema";
import { auditActor, recordAudit } from "@/lib/audit";
import { NotFoundError } from "@/lib/errors";
import { actorLabel, type Actor } from "./actor";
import { grantsFor, requireGrantable } from "./invites";

export const RevokeInviteInput = z.object({ id: z.string().min(1).max(100) });

/**
 * Revokes an open invite: its link stops working at once (it expires now). Whoever could have made it (admin of
 * every workspace it grants) may revoke it; a used or expired invite is gone already (404).
 */
export async function revokeInvite({
  db,
  actor,
  input,
}: {
  db: Db;
  actor: Actor;
  input: z.input<typeof RevokeInviteInput>;
}): Promise<{ revoked: string }> {
  const { id } = RevokeInviteInput.parse(input);
  const now = new Date();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(invites)
      .where(and(eq(invites.id, id), isNull(invites.usedAt), gt(invites.expiresAt, now)));
    if (!row) throw new NotFoundError("no open invite with that id (it was used, revoked or has expired)");
    const role = requireGrantable(actor, grantsFor(row.role, row.workspaces));
    await tx.update(invites).set({ expiresAt: now }).where(eq(invites.id, id));
    await recordAudit(tx, {
      actor: auditActor(actor, { role }),
      type: "invite.revoked",
      target: id,
      workspaceId: row.workspaces !== "all" && row.workspaces.length === 1 ? row.workspaces[0] : null,
      detail: { role: row.role, workspaces: row.workspaces, createdBy: row.createdBy, revokedBy: actorLabel(actor) },
    });
    return { revoked: id };
  });
}
