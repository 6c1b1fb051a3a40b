import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { loginTokens, sessions } from "@/db/schema";
import { namedActor, recordAudit } from "@/lib/audit";
import { GoneError } from "@/lib/errors";
import { ensureOwner } from "./owner";
import { digestsEqual, hashToken, randomToken } from "./tokens";

export interface LoginLink {
  token: string;
  expiresAt: Date;
}

/** Mints a single-use owner login token; only its hash is stored. */
export async function createOwnerLoginLink(db: Db, { ttlSeconds }: { ttlSeconds: number }): Promise<LoginLink> {
  const owner = await ensureOwner(db);
  const token = randomToken("cpl_");
  const expiresAt = new Date(Date.now() + ttlSeconds * 1000);
  await db.transaction(async (tx) => {
    await tx
      .insert(loginTokens)
      .values({ id: crypto.randomUUID(), tokenHash: hashToken(token), userId: owner.id, expiresAt });
    await recordAudit(tx, {
      type: "auth.login_link_created",
      actor: namedActor("local-cli"),
      target: owner.id,
      detail: { expiresAt: expiresAt.toISOString() },
    });
  });
  return { token, expiresAt };
}

export interface NewSession {
  sessionToken: string;
  sessionId: string;
  userId: string;
  expiresAt: Date;
}

/**
 * Redeems a login token exactly once (a single conditional update) and opens a new session.
 * A used, expired or unknown token is refused with the same message, so it reveals nothing.
 */
export async function redeemLoginLink(
  db: Db,
  { token, sessionTtlHours, userAgent }: { token: string; sessionTtlHours: number; userAgent?: string | null },
): Promise<NewSession> {
  const digest = hashToken(token);
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(loginTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(loginTokens.tokenHash, digest), isNull(loginTokens.usedAt), gt(loginTokens.expiresAt, new Date())))
      .returning();
    if (!claimed || !digestsEqual(claimed.tokenHash, digest)) {
      throw new GoneError(
        "This login link is invalid, expired or already used. Run `npx cockpit login-link` for a new one.",
      );
    }
    const sessionToken = randomToken("cps_");
    const sessionId = crypto.randomUUID();
    const expiresAt = new Date(Date.now() + sessionTtlHours * 3600 * 1000);
    await tx.insert(sessions).values({
      id: sessionId,
      tokenHash: hashToken(sessionToken),
      userId: claimed.userId,
      expiresAt,
      userAgent: userAgent?.slice(0, 300) ?? null,
    });
    await recordAudit(tx, {
      type: "auth.login",
      actor: { type: "user", label: claimed.userId, id: claimed.userId, session: sessionId, channel: "web" },
      target: sessionId,
      outcome: "allow",
      detail: { userAgent: userAgent?.slice(0, 300) ?? null, loginTokenId: claimed.id },
    });
    return { sessionToken, sessionId, userId: claimed.userId, expiresAt };
  });
}
