import { z } from "zod";
import { route } from "@/lib/http/route";
import { countPushSubscriptions, PushSubscriptionInput, subscribePush, unsubscribePush, vapidKeys } from "@/lib/notify";

/** The VAPID public key the browser subscribes with, and how many devices this person has enabled. */
export const GET = route({ access: "viewer" }, async ({ db, actor }) => ({
  publicKey: (await vapidKeys(db)).publicKey,
  devices: actor.kind === "user" ? await countPushSubscriptions(db, actor.userId) : 0,
}));

/** Enables push on this device: stores the browser's subscription for the signed-in person. */
export const POST = route(
  { access: "viewer", person: true, body: PushSubscriptionInput },
  async ({ req, db, actor, body }) => ({
    subscription: await subscribePush({ db, actor, input: body, userAgent: req.headers.get("user-agent") }),
  }),
);

export const DELETE = route(
  { access: "viewer", body: z.object({ endpoint: z.string().max(2000) }) },
  async ({ db, actor, body }) => unsubscribePush({ db, actor, endpoint: body.endpoint }),
);
