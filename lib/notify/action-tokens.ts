import "server-only";
import { createHash, createHmac, randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Db, DbOrTx } from "@/db/client";
import { appSettings, notifyActionTokens } from "@/db/schema";
import { recordAudit } from "@/lib/audit";
import type { Actor } from "@/lib/auth/actor";
import { getCardRowUnchecked, getCardUnchecked, settleCard, type SettleCardResult } from "@/lib/cards";
import { ConflictError, ForbiddenError, GoneError, NotFoundError } from "@/lib/errors";
import { ACTION_TOKEN_TTL_MS, nowOf, publicUrlOf, type NotifyEnv } from "./notify-env";

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

const ACTION_KEY = "notify.action-key";

/** The server's secret for deriving action tokens, generated once and kept in app_settings (like the VAPID keys). */
async function actionKey(db: DbOrTx): Promise<Buffer> {
  const read = async () => (await db.select().from(appSettings).where(eq(appSettings.key, ACTION_KEY)))[0];
  const row = await read();
  if (row) return Buffer.from((row.value as { key: string }).key, "base64url");
  await db
    .insert(appSettings)
    .values({ key: ACTION_KEY, value: { key: randomBytes(32).toString("base64url") } })
    .onConflictDoNothing();
  // Another process may have won the insert: use whichever key is stored.
  return Buffer.from(((await read())!.value as { key: string }).key, "base64url");
}

/**
 * Two capabilities for one card and one endpoint: one can only allow it once, the other only deny it. Each is a
 * 256-bit HMAC of (card, endpoint, outcome) under the server's action key, stored hashed. Deriving instead of
 * drawing at random makes every retry of a delivery carry the same pair — a send that timed out may still have
 * reached the phone, and its buttons must keep working — and leaves one row per outcome, not one per attempt.
 */
export async function mintActionTokens(
  db: DbOrTx,
  { cardId, endpointId, env = {} }: { cardId: string; endpointId: string | null; env?: NotifyEnv },
) {
  const key = await actionKey(db);
  const expiresAt = new Date(nowOf(env).getTime() + (env.actionTokenTtlMs ?? ACTION_TOKEN_TTL_MS));
  const make = async (outcome: "allow" | "deny") => {
    const mac = createHmac("sha256", key)
      .update(`cockpit-action\0${cardId}\0${endpointId ?? ""}\0${outcome}`)
      .digest();
    const token = `cna_${mac.toString("base64url")}`;
    // The first attempt sets the lifetime; retries neither extend it nor revive a used token.
    await db
      .insert(notifyActionTokens)
      .values({ tokenHash: hashToken(token), cardId, outcome, endpointId, expiresAt })
      .onConflictDoNothing();
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
    await db.transaction((tx) =>
      recordAudit(tx, {
        type: "notify.action_refused",
        actor: { type: "notification", label: NTFY_NAME, id: row.cardId, channel: "ntfy" },
        target: row.cardId,
        outcome: "refused",
        detail: { reason, tokenHash: row.tokenHash.slice(0, 12) },
      }),
    );
    return error;
  };
  if ((claim.card && claim.card !== row.cardId) || (claim.outcome && claim.outcome !== row.outcome)) {
    throw await refuse(new ForbiddenError("this token is bound to another card or outcome"), "mismatch");
  }
  const card = await getCardRowUnchecked(db, row.cardId);
  if (card.status !== "pending")
    throw await refuse(
      new ConflictError(`the card is already ${card.status}${card.settledBy ? ` by ${card.settledBy}` : ""}`, {
        card: await getCardUnchecked(db, card.id),
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
