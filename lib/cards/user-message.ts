import { and, eq, isNotNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { auditEvents, sessionHolds } from "@/db/schema";
import { actorLabel, type Actor } from "@/lib/auth/actor";
import { requireCan } from "@/lib/auth/access";

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
      await tx
        .insert(auditEvents)
        .values({ actor: actorLabel(actor), action: "session.hold_ended", target: rootSessionId, workspaceId });
    return { holdEnded: rows.length > 0 };
  });
}
