import { and, eq, isNotNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { sessionHolds } from "@/db/schema";
import { auditActor, recordAudit } from "@/lib/audit";
import type { Actor } from "@/lib/auth/actor";
import { ForbiddenError } from "@/lib/errors";

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
  if (actor.kind === "agent" && actor.workspaceId !== workspaceId)
    throw new ForbiddenError("this agent token belongs to another workspace");
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
        actor: auditActor(actor),
        target: rootSessionId,
        agentSessionId: rootSessionId,
        workspaceId,
      });
    return { holdEnded: rows.length > 0 };
  });
}
