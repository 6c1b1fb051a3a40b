import "server-only";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { loginTokens } from "@/db/schema";
import { auditActor, namedActor, recordAudit } from "@/lib/audit";
import { GoneError } from "@/lib/errors";
import { requireCan } from "./access";
import type { Actor } from "./actor";
import { ensureOwner } from "./owner";
import { openSession, type NewSession } from "./sessions";
import { digestsEqual, hashToken, randomToken } from "./tokens";

export type { NewSession } from "./sessions";

export interface LoginLink {
  token: string;
  expiresAt: Date;
}

/** Phone pairing links live ten minutes (ASVS 6.5.5). */
export const PAIR_TTL_SECONDS = 600;

/** Mints a single-use owner login token; only its hash is stored. */
export async function createOwnerLoginLink(
  db: Db,
  { ttlSeconds, purpose = "link", actor }: { ttlSeconds: number; purpose?: "link" | "pair"; actor?: Actor },
): Promise<LoginLink> {
  const owner = await ensureOwner(db);
  const token = randomToken("cpl_");
  const expiresAt = new Date(Date.now() + ttlSeconds * 1000);
  await db.transaction(async (tx) => {
    await tx
      .insert(loginTokens)
      .values({ id: crypto.randomUUID(), tokenHash: hashToken(token), userId: owner.id, expiresAt, purpose });
    await recordAudit(tx, {
      type: purpose === "pair" ? "auth.pair_link_created" : "auth.login_link_created",
      actor: actor ? auditActor(actor, { workspaceId: null }) : namedActor("local-cli"),
      target: owner.id,
      detail: { expiresAt: expiresAt.toISOString() },
    });
  });
  return { token, expiresAt };
}

/** "Pair my phone": the owner (only) mints a 10-minute single-use link that signs the owner in on another device. */
export async function createPairingLink({ db, actor }: { db: Db; actor: Actor }): Promise<LoginLink> {
  requireCan(actor, "owner.pair", null);
  return createOwnerLoginLink(db, { ttlSeconds: PAIR_TTL_SECONDS, purpose: "pair", actor });
}

/**
 * Redeems a login token exactly once (a single conditional update) and opens a new session.
 * A used, expired or unknown token is refused with the same message, so it reveals nothing.
 */
export async function redeemLoginLink(
  db: Db,
  {
    token,
    sessionTtlHours,
    userAgent,
    previousToken,
  }: { token: string; sessionTtlHours?: number; userAgent?: string | null; previousToken?: string | null },
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
    return openSession(tx, {
      userId: claimed.userId,
      signIn: claimed.purpose === "pair" ? "pair" : "link",
      userAgent,
      previousToken,
      ttlHours: sessionTtlHours,
      loginTokenId: claimed.id,
    });
  });
}
