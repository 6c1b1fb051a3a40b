import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Db, DbOrTx } from "@/db/client";
import { auditEvents, notifyActionTokens } from "@/db/schema";
import type { Actor } from "@/lib/auth/actor";
import { getCard, getCardRow, settleCard, type SettleCardResult } from "@/lib/cards";
import { ConflictError, ForbiddenError, GoneError, NotFoundError } from "@/lib/errors";
import { ACTION_TOKEN_TTL_MS, nowOf, publicUrlOf, type NotifyEnv } from "./notify-env";

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** Two capabilities for one card: one can only allow it once, the other only deny it. 256 random bits each, stored hashed. */
export async function mintActionTokens(
  db: DbOrTx,
  { cardId, endpointId, env = {} }: { cardId: string; endpointId: string | null; env?: NotifyEnv },
) {
  const expiresAt = new Date(nowOf(env).getTime() + (env.actionTokenTtlMs ?? ACTION_TOKEN_TTL_MS));
  const make = async (outcome: "allow" | "deny") => {
    const token = `cna_${randomBytes(32).toString("base64url")}`;
    await db.insert(notifyActionTokens).values({ tokenHash: hashToken(token), cardId, outcome, endpointId, expiresAt });
    return { token, url: `${publicUrlOf(env)}/api/v1/notify/actions/${token}` };
  };
  return { approve: await make("allow"), deny: await make("deny") };
}

/** What the ntfy button sends in its body; both fields must match what the token is bound to. */
export const ActionClaim = z
  .object({ card: z.string().max(200).optional(), outcome: z.enum(["allow", "deny"]).optional() })
  .default({});
export type ActionClaim = z.infer<typeof ActionClaim>;

const NTFY_NAME = "ntfy button";

/**
 * Uses a token: 404 unknown; 403 when the body names another card or outcome; 409 after the card is
 * settled or the token was used; 410 after its lifetime. Only a live token for a pending card settles it,
 * and only with the outcome it was minted for ("allow once" or "deny").
 */
export async function useActionToken({
  db,
  token,
  claim,
  env = {},
}: {
  db: Db;
  token: string;
  claim: ActionClaim;
  env?: NotifyEnv;
}): Promise<SettleCardResult> {
  const [row] = await db
    .select()
    .from(notifyActionTokens)
    .where(eq(notifyActionTokens.tokenHash, hashToken(token)));
  if (!row) throw new NotFoundError("unknown action token");
  const refuse = async (error: Error, reason: string) => {
    await db.insert(auditEvents).values({
      actor: NTFY_NAME,
      action: "notify.action_refused",
      target: row.cardId,
      detail: { reason, tokenHash: row.tokenHash.slice(0, 12) },
    });
    return error;
  };
  if ((claim.card && claim.card !== row.cardId) || (claim.outcome && claim.outcome !== row.outcome)) {
    throw await refuse(new ForbiddenError("this token is bound to another card or outcome"), "mismatch");
  }
  const card = await getCardRow(db, { cardId: row.cardId });
  if (card.status !== "pending")
    throw await refuse(
      new ConflictError(`the card is already ${card.status}${card.settledBy ? ` by ${card.settledBy}` : ""}`, {
        card: await getCard(db, { cardId: card.id }),
      }),
      "settled",
    );
  if (row.usedAt) throw await refuse(new ConflictError("this action token was already used"), "reused");
  if (row.expiresAt.getTime() <= nowOf(env).getTime())
    throw await refuse(new GoneError("this action token has expired; open the card instead"), "expired");
  const claimed = await db
    .update(notifyActionTokens)
    .set({ usedAt: nowOf(env) })
    .where(and(eq(notifyActionTokens.tokenHash, row.tokenHash), isNull(notifyActionTokens.usedAt)))
    .returning();
  if (claimed.length === 0) throw await refuse(new ConflictError("this action token was already used"), "reused");
  // The token is the capability: it answers this one card, in its workspace, with its one outcome.
  const actor: Actor = { kind: "notification", name: NTFY_NAME, workspaceId: card.workspaceId, cardId: card.id };
  return settleCard({
    db,
    actor,
    cardId: row.cardId,
    input: { outcome: row.outcome, remember: "once", hash: card.hash },
    client: "ntfy",
  });
}
