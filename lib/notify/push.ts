import "server-only";
import { and, eq } from "drizzle-orm";
import webpush from "web-push";
import { z } from "zod";
import type { Db, DbOrTx } from "@/db/client";
import { appSettings, pushSubscriptions } from "@/db/schema";
import { auditActor, recordAudit } from "@/lib/audit";
import { isPerson, type Actor } from "@/lib/auth/actor";
import type { CardView } from "@/lib/cards/view";
import { ForbiddenError } from "@/lib/errors";
import { elide } from "./formats/elide";
import { cardTitle, requestText } from "./formats/summary";
import { cardUrl, publicUrlOf, type NotifyEnv } from "./notify-env";
import { targetPolicy } from "./settings";
import { checkTarget, parseTargetUrl } from "./ssrf";

const VAPID_KEY = "notify.vapid";
type VapidKeys = { publicKey: string; privateKey: string };

/** The server's VAPID key pair, generated once (first start or first use) and kept in app_settings. */
export async function vapidKeys(db: DbOrTx): Promise<VapidKeys> {
  const [row] = await db.select().from(appSettings).where(eq(appSettings.key, VAPID_KEY));
  if (row) return row.value as VapidKeys;
  const fresh = webpush.generateVAPIDKeys();
  await db.insert(appSettings).values({ key: VAPID_KEY, value: fresh }).onConflictDoNothing();
  // Another process may have won the insert: read back whichever pair is stored.
  const [stored] = await db.select().from(appSettings).where(eq(appSettings.key, VAPID_KEY));
  return stored!.value as VapidKeys;
}

export const PushSubscriptionInput = z.object({
  endpoint: z.string().url().max(2000),
  keys: z.object({
    p256dh: z
      .string()
      .max(200)
      .refine((k) => Buffer.from(k, "base64url").length === 65, "p256dh must be an uncompressed P-256 public key"),
    auth: z
      .string()
      .max(100)
      .refine((k) => Buffer.from(k, "base64url").length === 16, "auth must be 16 bytes"),
  }),
});
export type PushSubscriptionInput = z.infer<typeof PushSubscriptionInput>;

/** Saves this device's subscription for the signed-in person; the push service URL must pass the SSRF policy. */
export async function subscribePush({
  db,
  actor,
  input,
  userAgent,
  env = {},
}: {
  db: Db;
  actor: Actor;
  input: PushSubscriptionInput;
  userAgent?: string | null;
  env?: NotifyEnv;
}) {
  if (actor.kind !== "user") throw new ForbiddenError("push is enabled per signed-in person and device");
  input = PushSubscriptionInput.parse(input);
  const url = parseTargetUrl(input.endpoint);
  await checkTarget(url, await targetPolicy(db, env));
  const values = {
    userId: actor.userId,
    endpoint: input.endpoint,
    p256dh: input.keys.p256dh,
    auth: input.keys.auth,
    userAgent: userAgent?.slice(0, 300) ?? null,
  };
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(pushSubscriptions)
      .values({ id: crypto.randomUUID(), ...values })
      .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: values })
      .returning();
    await recordAudit(tx, {
      type: "notify.push_subscribed",
      actor: auditActor(actor),
      target: row!.id,
      detail: { origin: url.origin },
    });
    return { id: row!.id };
  });
}

export async function unsubscribePush({ db, actor, endpoint }: { db: Db; actor: Actor; endpoint: string }) {
  if (!isPerson(actor)) throw new ForbiddenError("push is enabled per signed-in person and device");
  const removed = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.endpoint, endpoint), eq(pushSubscriptions.userId, actor.userId)))
    .returning();
  return { removed: removed.length };
}

export async function countPushSubscriptions(db: Db, userId: string): Promise<number> {
  return (
    await db.select({ id: pushSubscriptions.id }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId))
  ).length;
}

/** What the service worker shows; kept small (push services cap payloads near 4 kB). */
function pushPayload(card: CardView, url: string) {
  return { title: cardTitle(card), body: elide(requestText(card), 240), url, tag: `card-${card.id}`, cardId: card.id };
}

/** An encrypted, VAPID-signed request for one subscription, sent by our own SSRF-checked client. */
export async function pushRequest(db: Db, sub: typeof pushSubscriptions.$inferSelect, card: CardView, env: NotifyEnv) {
  const keys = await vapidKeys(db);
  const base = publicUrlOf(env);
  // Safari refuses a VAPID subject of https://localhost; a mailto works everywhere.
  const subject =
    base.startsWith("https://") && !new URL(base).hostname.endsWith("localhost")
      ? base
      : "mailto:cockpit@permissions-cockpit.invalid";
  const details = webpush.generateRequestDetails(
    { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
    JSON.stringify(pushPayload(card, cardUrl(env, card.id))),
    {
      vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
      TTL: 3600,
      urgency: "high",
      topic: card.id.replace(/[^A-Za-z0-9]/g, "").slice(0, 32),
    },
  );
  return {
    url: details.endpoint,
    headers: details.headers as Record<string, string>,
    body: details.body ?? Buffer.alloc(0),
  };
}
