import { createECDH, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { appSettings, memberships, notifyDeliveries, pushSubscriptions, users } from "@/db/schema";
import type { Actor } from "@/lib/auth/actor";
import { roleEverywhere } from "@/test/support/auth";
import { subscribePush, vapidKeys } from "./push";
import { notifyFixture, startReceiver, type NotifyFixture, type Receiver } from "@/test/support/notify";
import { startNotifyWorker } from "./worker";

let f: NotifyFixture;
let pushService: Receiver;
let answer = 201;
const person: Actor = roleEverywhere("approver", { userId: "u-phone", name: "pat", sessionId: "s" });
const browserKeys = () => {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") };
};

beforeAll(async () => {
  f = await notifyFixture();
  pushService = await startReceiver(() => ({ status: answer }));
  await f.opened.db.insert(users).values({ id: "u-phone", name: "pat" });
  // Push reaches only people who may see the card's workspace: pat approves everywhere.
  await f.opened.db
    .insert(memberships)
    .values({ id: "m-phone", userId: "u-phone", workspaceId: null, role: "approver" });
});
afterAll(async () => {
  await pushService.close();
  await f.cleanup();
});

describe("Web Push", () => {
  it("generates the VAPID key pair once and keeps it in app_settings", async () => {
    const a = await vapidKeys(f.opened.db);
    const b = await vapidKeys(f.opened.db);
    expect(a).toEqual(b);
    expect(a.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(await f.opened.db.select().from(appSettings).where(eq(appSettings.key, "notify.vapid"))).toHaveLength(1);
  });

  it("refuses a push endpoint on a private network unless allowed", async () => {
    await expect(
      subscribePush({
        db: f.opened.db,
        actor: person,
        input: { endpoint: "https://10.0.0.5/push/x", keys: browserKeys() },
        env: f.env,
      }),
    ).rejects.toThrow(/private/);
  });

  it("pushes an encrypted, VAPID-signed message for card.admitted and removes a subscription the service calls gone", async () => {
    await subscribePush({
      db: f.opened.db,
      actor: person,
      input: { endpoint: `${pushService.url}/sub-1`, keys: browserKeys() },
      env: f.env,
    });
    const w = startNotifyWorker({ db: f.opened.db, env: f.env, pollMs: 0 });
    await f.admit("rm -rf cache", "s-push");
    await w.tick();
    await w.idle();
    expect(pushService.requests).toHaveLength(1);
    const req = pushService.requests[0]!;
    expect(req.url).toBe("/hook/sub-1");
    expect(req.headers["content-encoding"]).toBe("aes128gcm");
    expect(req.headers.authorization).toMatch(/^vapid t=[\w-]+\.[\w-]+\.[\w-]+, k=[\w-]+$/);
    expect(req.headers.urgency).toBe("high");
    expect(Number(req.headers.ttl)).toBeGreaterThan(0);
    expect(req.body).not.toContain("rm -rf cache");
    expect(
      (await f.opened.db.select().from(notifyDeliveries).where(eq(notifyDeliveries.eventType, "card.admitted")))[0],
    ).toMatchObject({ status: "delivered" });

    await expect(
      subscribePush({
        db: f.opened.db,
        actor: person,
        input: { endpoint: `${pushService.url}/sub-broken`, keys: { p256dh: "bm90LWEta2V5", auth: "eA" } },
        env: f.env,
      }),
    ).rejects.toThrow(/P-256/);
    // Stored before validation existed, say: the delivery fails once instead of retrying forever.
    const [broken] = await f.opened.db
      .insert(pushSubscriptions)
      .values({
        id: "sub-broken",
        userId: "u-phone",
        endpoint: `${pushService.url}/sub-broken`,
        p256dh: "bm90LWEta2V5",
        auth: "eA",
      })
      .returning();
    await f.admit("rm -rf cache1", "s-push");
    await w.tick();
    await w.idle();
    const brokenRows = await f.opened.db
      .select()
      .from(notifyDeliveries)
      .where(eq(notifyDeliveries.subscriptionId, broken!.id));
    expect(brokenRows).toMatchObject([{ status: "failed", attempts: 1 }]);
    expect(brokenRows[0]!.lastError).toMatch(/not sent/);
    await f.opened.db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, broken!.id));
    expect(pushService.requests).toHaveLength(2);

    answer = 410;
    await f.admit("rm -rf cache2", "s-push");
    await w.tick();
    await w.idle();
    await w.stop();
    expect(pushService.requests).toHaveLength(3);
    expect(await f.opened.db.select().from(pushSubscriptions)).toHaveLength(0);
  });
});
