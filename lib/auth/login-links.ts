import "server-only";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { loginTokens } from "@/db/schema";
import { z } from "zod";
import { auditActor, recordAudit, type AuditActor } from "@/lib/audit";
import { ForbiddenError, GoneError } from "@/lib/errors";
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

export const CreateOwnerLoginLinkInput = z.object({ ttlSeconds: z.number().int() });

/**
 * `cockpit login-link`: a single-use owner login link, for the owner's own powers (the local CLI credential or the
 * owner's session). The developer credential a dedicated-user deployment hands to the developer's user
 * (docs/deploy.md) mints none: the owner runs `cockpit login-link` as the cockpit's own user.
 */
export async function createOwnerLoginLink({
  db,
  actor,
  input,
}: {
  db: Db;
  actor: Actor;
  input: z.input<typeof CreateOwnerLoginLinkInput>;
}): Promise<LoginLink> {
  requireCan(actor, "owner.login_link", null);
  if (actor.kind === "local" && actor.developer)
    throw new ForbiddenError(
      "the developer credential cannot mint login links: the owner runs `cockpit login-link` as the cockpit's own user",
    );
  const { ttlSeconds } = CreateOwnerLoginLinkInput.parse(input);
  return mintOwnerLoginLinkUnchecked(db, { ttlSeconds, purpose: "link", by: auditActor(actor, { workspaceId: null }) });
}

/** "Pair my phone": the owner (only) mints a 10-minute single-use link that signs the owner in on another device. */
export async function createPairingLink({ db, actor }: { db: Db; actor: Actor }): Promise<LoginLink> {
  requireCan(actor, "owner.pair", null);
  return mintOwnerLoginLinkUnchecked(db, {
    ttlSeconds: PAIR_TTL_SECONDS,
    purpose: "pair",
    by: auditActor(actor, { workspaceId: null }),
  });
}

/**
 * Mints a single-use owner login token (only its hash is stored) with its audit row, checking nobody: the two verbs
 * above call it after their checks, and test fixtures sign the owner in with it. Never call it for a caller.
 */
export async function mintOwnerLoginLinkUnchecked(
  db: Db,
  { ttlSeconds, purpose, by }: { ttlSeconds: number; purpose: "link" | "pair"; by: AuditActor },
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
      actor: by,
      target: owner.id,
      detail: { expiresAt: expiresAt.toISOString() },
    });
  });
  return { token, expiresAt };
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
