import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { sessions, users } from "@/db/schema";
import { namedActor, recordAudit } from "@/lib/audit";
import type { Actor } from "./actor";
import { digestsEqual, hashToken } from "./tokens";

/** The signed-in person behind a session token, or null when it is unknown, ended or expired. */
export async function actorFromSessionToken(db: Db, token: string | undefined | null): Promise<Actor | null> {
  if (!token || token.length > 200) return null;
  const digest = hashToken(token);
  const [row] = await db
    .select({
      sessionId: sessions.id,
      tokenHash: sessions.tokenHash,
      userId: users.id,
      name: users.name,
      isOwner: users.isOwner,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, digest), isNull(sessions.endedAt), gt(sessions.expiresAt, new Date())))
    .limit(1);
  if (!row || !digestsEqual(row.tokenHash, digest)) return null;
  // Roles beyond the owner arrive with collaborators; until then every user is the owner.
  return {
    kind: "user",
    userId: row.userId,
    name: row.name,
    role: row.isOwner ? "owner" : "viewer",
    sessionId: row.sessionId,
  };
}

/** Ends a session server-side: the cookie stops working even if a copy survives. */
export async function endSession(db: Db, sessionId: string, actorName: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(sessions).set({ endedAt: new Date() }).where(eq(sessions.id, sessionId));
    await recordAudit(tx, {
      type: "auth.logout",
      actor: { ...namedActor(actorName), session: sessionId },
      target: sessionId,
    });
  });
}
