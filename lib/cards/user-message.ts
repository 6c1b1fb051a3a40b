import "server-only";
import { and, eq, isNotNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { sessionHolds } from "@/db/schema";
import { auditActor, recordAudit } from "@/lib/audit";
import { requireCan } from "@/lib/auth/access";
import type { Actor } from "@/lib/auth/actor";

/** The user wrote to the agent again (Claude Code `UserPromptSubmit`): the absence hold of that root session ends. */
export async function userMessage({
  db,
  actor,
  workspaceId,
  rootSessionId,
  now = new Date(),
}: {
  db: Db;
  actor: Actor;
  workspaceId: string;
  rootSessionId: string;
  now?: Date;
}): Promise<{ holdEnded: boolean }> {
  requireCan(actor, actor.kind === "agent" ? "session.user_message" : "session.release", workspaceId);
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(sessionHolds)
      .set({ heldAt: null, updatedAt: now })
      .where(
        and(
          eq(sessionHolds.workspaceId, workspaceId),
          eq(sessionHolds.rootSessionId, rootSessionId),
          isNotNull(sessionHolds.heldAt),
        ),
      )
      .returning();
    if (rows.length)
      await recordAudit(tx, {
        type: "session.hold_ended",
        actor: auditActor(actor, { workspaceId }),
        target: rootSessionId,
        agentSessionId: rootSessionId,
        workspaceId,
      });
    return { holdEnded: rows.length > 0 };
  });
}
