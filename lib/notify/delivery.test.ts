import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { cardEvents, notifyActionTokens, notifyAttempts, notifyDeliveries, webhookEndpoints } from "@/db/schema";
import { getCardUnchecked, settleCard } from "@/lib/cards";
import { createEndpoint, listDeliveries, redeliver } from "./endpoints";
import { fanOut } from "./fan-out";
import { sendTest } from "./send-test";
import { verifyWebhook } from "./signing";
import {
  ADMIN,
  eventually,
  notifyFixture,
  startReceiver,
  type NotifyFixture,
  type Receiver,
  type Reply,
} from "@/test/support/notify";
import { startNotifyWorker, type NotifyWorker } from "./worker";

let f: NotifyFixture;
const receivers: Receiver[] = [];
const workers: NotifyWorker[] = [];
const receiver = async (reply?: Receiver["reply"]) => {
  const r = await startReceiver(reply);
  receivers.push(r);
  return r;
};
const worker = (env = f.env) => {
  const w = startNotifyWorker({ db: f.opened.db, env, pollMs: 0 });
  workers.push(w);
  return w;
};
const run = async (w: NotifyWorker) => {
  await w.tick();
  await w.idle();
};
const deliveriesOf = (endpointId: string) =>
  f.opened.db.select().from(notifyDeliveries).where(eq(notifyDeliveries.endpointId, endpointId));

beforeAll(async () => {
  f = await notifyFixture();
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  await f.opened.db.delete(webhookEndpoints);
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await f.cleanup();
});

describe("outbox delivery", () => {
  it("delivers a signed card.admitted once per card and per endpoint, however often the worker runs", async () => {
    const a = await receiver();
    const b = await receiver();
    const ea = await createEndpoint({ db: f.opened.db, actor: ADMIN, input: { url: a.url }, env: f.env });
    const eb = await createEndpoint({
      db: f.opened.db,
      actor: ADMIN,
      input: { url: b.url, workspace: f.workspaceId },
      env: f.env,
    });
    const w = worker();
    const card = await f.admit("git push origin main");
    await run(w);
    await run(w);
    await fanOut(f.opened.db, f.env);
    await run(w);
    expect(a.requests).toHaveLength(1);
    expect(b.requests).toHaveLength(1);
    const req = a.requests[0]!;
    expect(verifyWebhook(req.headers as Record<string, string>, req.body, ea.secret).ok).toBe(true);
    expect(verifyWebhook(b.requests[0]!.headers as Record<string, string>, b.requests[0]!.body, eb.secret).ok).toBe(
      true,
    );
    expect(verifyWebhook(req.headers as Record<string, string>, req.body, eb.secret).ok).toBe(false);
    expect(req.headers["webhook-id"]).toMatch(/^msg_/);
    const body = JSON.parse(req.body);
    expect(body).toMatchObject({
      type: "card.admitted",
      version: 1,
      data: {
        url: `https://cockpit.example/cards/${card}`,
        card: { id: card, tool: "Bash", input: { command: "git push origin main" }, workspace: { id: f.workspaceId } },
      },
    });
    expect(Date.parse(body.timestamp)).not.toBeNaN();
    expect((await deliveriesOf(ea.endpoint.id))[0]).toMatchObject({
      status: "delivered",
      attempts: 1,
      lastStatusCode: 200,
    });
  });

  it("sends nothing for calls policy settles at admission, and card.settled only to endpoints that asked", async () => {
    const all = await receiver();
    const admittedOnly = await receiver();
    await createEndpoint({
      db: f.opened.db,
      actor: ADMIN,
      input: { url: all.url, events: ["card.admitted", "card.settled", "card.expired"] },
      env: f.env,
    });
    await createEndpoint({ db: f.opened.db, actor: ADMIN, input: { url: admittedOnly.url }, env: f.env });
    const w = worker();
    f.allowRule("Bash(npm test)");
    await f.opened.db.select().from(cardEvents); // settle the fixture's earlier events
    const { admitCard } = await import("@/lib/cards");
    const coalesced = await admitCard({
      db: f.opened.db,
      actor: f.agent,
      workspaceId: f.workspaceId,
      input: { agent: "claude-code", sessionId: "s-pol", tool: "Bash", input: { command: "npm test" } },
      env: { home: f.home, managedSettingsPath: null },
    });
    expect(coalesced.status).toBe("coalesced");
    await run(w);
    expect(all.requests).toHaveLength(0);
    expect(admittedOnly.requests).toHaveLength(0);

    const id = await f.admit("rm -rf build", "s-settle");
    await run(w);
    const card = await getCardUnchecked(f.opened.db, id);
    await settleCard({
      db: f.opened.db,
      actor: ADMIN,
      cardId: id,
      input: { outcome: "deny", remember: "once", hash: card.hash },
      client: "web",
    });
    await run(w);
    expect(all.requests.map((r) => JSON.parse(r.body).type)).toEqual(["card.admitted", "card.settled"]);
    expect(JSON.parse(all.requests[1]!.body).data.card.settlement).toMatchObject({ outcome: "deny", by: "alice" });
    expect(admittedOnly.requests.map((r) => JSON.parse(r.body).type)).toEqual(["card.admitted"]);
    expect(all.requests[0]!.headers["webhook-id"]).not.toBe(all.requests[1]!.headers["webhook-id"]);
  });

  it("retries 5xx, 429 and timeouts on the schedule with jitter, keeps the webhook-id, re-signs each attempt", async () => {
    const answers = [500, 429, 0, 200];
    const r = await receiver((): Reply => {
      const status = answers.shift()!;
      return status === 0
        ? { status: 200, delayMs: 400 }
        : { status, headers: status === 429 ? { "retry-after": "30" } : {} };
    });
    const clock = { now: new Date(Date.now() + 5000) };
    const env = { ...f.env, now: () => clock.now, schedule: [5, 10, 20], random: () => 1, timeoutMs: 200 };
    const ep = await createEndpoint({ db: f.opened.db, actor: ADMIN, input: { url: r.url }, env });
    const w = worker(env);
    await f.admit("make deploy", "s-retry");
    await run(w);
    let [d] = await deliveriesOf(ep.endpoint.id);
    expect(d).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500 });
    // +10 % jitter at random() = 1: 5 s becomes 5.5 s.
    expect(d!.nextAttemptAt!.getTime() - clock.now.getTime()).toBe(5500);
    clock.now = new Date(clock.now.getTime() + 5000);
    await run(w);
    expect(r.requests).toHaveLength(1);
    clock.now = new Date(clock.now.getTime() + 600);
    await run(w);
    [d] = await deliveriesOf(ep.endpoint.id);
    // 429 with Retry-After: 30 s wins over the scheduled 11 s.
    expect(d).toMatchObject({ attempts: 2, lastStatusCode: 429 });
    expect(d!.nextAttemptAt!.getTime() - clock.now.getTime()).toBe(30_000);
    clock.now = new Date(clock.now.getTime() + 30_000);
    await run(w);
    [d] = await deliveriesOf(ep.endpoint.id);
    expect(d).toMatchObject({ attempts: 3, lastStatusCode: null, status: "pending" });
    expect(d!.lastError).toMatch(/no answer/);
    clock.now = new Date(clock.now.getTime() + 22_000);
    await run(w);
    [d] = await deliveriesOf(ep.endpoint.id);
    expect(d).toMatchObject({ attempts: 4, status: "delivered", lastStatusCode: 200 });
    expect(new Set(r.requests.map((q) => q.headers["webhook-id"])).size).toBe(1);
    expect(new Set(r.requests.map((q) => q.headers["webhook-timestamp"])).size).toBe(4);
    const log = await listDeliveries(f.opened.db, { endpointId: ep.endpoint.id });
    expect(log[0]!.log.map((a) => a.statusCode)).toEqual([500, 429, null, 200]);
    expect(log[0]!.log.every((a) => a.latencyMs >= 0)).toBe(true);
  });

  it("ntfy: retries carry the same action tokens (one row per outcome) and the log redacts what the receiver echoes", async () => {
    const answers = [500, 502, 503, 200];
    // Like ntfy, the receiver echoes the whole message (actions, their URLs and bearer tokens) and the access token.
    const r = await receiver((req): Reply => {
      const msg = JSON.parse(req.body);
      const echo = { id: "n1", ...msg, debug: { authorization: req.headers.authorization } };
      return {
        status: answers.shift()!,
        body: `${JSON.stringify(echo)}\nAuthorization: ${req.headers.authorization}\nsig: ${req.headers["webhook-signature"]}`,
      };
    });
    const clock = { now: new Date(Date.now() + 5000) };
    const env = { ...f.env, now: () => clock.now, schedule: [5, 5, 5, 5], random: () => 0.5 };
    const ep = await createEndpoint({
      db: f.opened.db,
      actor: ADMIN,
      input: { url: `${r.url.replace("/hook", "")}/topic`, format: "ntfy", ntfyToken: "tk_ntfyAccessSecret42" },
      env,
    });
    const w = worker(env);
    const cardId = await f.admit("rm -rf release", "s-ntfy-retry");
    for (let i = 0; i < 4; i++) {
      await run(w);
      clock.now = new Date(clock.now.getTime() + 6000);
    }
    const [d] = await deliveriesOf(ep.endpoint.id);
    expect(d).toMatchObject({ status: "delivered", attempts: 4 });
    expect(r.requests).toHaveLength(4);
    const sent = r.requests.map((q) => JSON.parse(q.body));
    const approveUrls = new Set(sent.map((b) => b.actions[0].url));
    const denyUrls = new Set(sent.map((b) => b.actions[1].url));
    expect(approveUrls.size).toBe(1);
    expect(denyUrls.size).toBe(1);
    const rows = await f.opened.db.select().from(notifyActionTokens).where(eq(notifyActionTokens.cardId, cardId));
    expect(rows.map((t) => t.outcome).sort()).toEqual(["allow", "deny"]);

    const log = await listDeliveries(f.opened.db, { endpointId: ep.endpoint.id });
    const stored = log[0]!.log.map((a) => a.responseBody ?? "");
    expect(stored).toHaveLength(4);
    const approveToken = [...approveUrls][0]!.split("/").pop()!;
    const attempts = JSON.stringify(await f.opened.db.select().from(notifyAttempts));
    for (const text of [...stored, attempts]) {
      expect(text).not.toContain(approveToken);
      expect(text).not.toMatch(/cna_[A-Za-z0-9_-]{8}/);
      expect(text).not.toContain("/api/v1/notify/actions/");
      expect(text).not.toContain("tk_ntfyAccessSecret42");
      expect(text).not.toMatch(/Bearer [A-Za-z0-9]/);
    }
    // What is not a credential stays readable.
    expect(stored[0]).toContain('"topic":"topic"');
    expect(stored[0]).toContain("rm -rf release");
  });

  it("gives up after the schedule, on a 4xx and on a redirect", async () => {
    const r = await receiver((req) =>
      req.url.includes("bad")
        ? { status: 400 }
        : req.url.includes("moved")
          ? { status: 302, headers: { location: "http://127.0.0.1:1/" } }
          : { status: 503 },
    );
    const clock = { now: new Date(Date.now() + 5000) };
    const env = { ...f.env, now: () => clock.now, schedule: [1], random: () => 0.5 };
    const down = await createEndpoint({ db: f.opened.db, actor: ADMIN, input: { url: r.url }, env });
    const bad = await createEndpoint({ db: f.opened.db, actor: ADMIN, input: { url: `${r.url}/bad` }, env });
    const moved = await createEndpoint({ db: f.opened.db, actor: ADMIN, input: { url: `${r.url}/moved` }, env });
    const w = worker(env);
    await f.admit("terraform apply", "s-giveup");
    await run(w);
    clock.now = new Date(clock.now.getTime() + 1000);
    await run(w);
    expect((await deliveriesOf(down.endpoint.id))[0]).toMatchObject({ status: "failed", attempts: 2 });
    expect((await deliveriesOf(down.endpoint.id))[0]!.lastError).toMatch(/gave up after 2 attempts/);
    expect((await deliveriesOf(bad.endpoint.id))[0]).toMatchObject({
      status: "failed",
      attempts: 1,
      lastStatusCode: 400,
    });
    expect((await deliveriesOf(moved.endpoint.id))[0]).toMatchObject({
      status: "failed",
      attempts: 1,
      lastStatusCode: 302,
    });
    expect((await deliveriesOf(moved.endpoint.id))[0]!.lastError).toMatch(/redirect/);
    expect(r.requests.filter((q) => q.url.includes("moved"))).toHaveLength(1);
  });

  it("disables the endpoint after one 410 and stops delivering to it", async () => {
    const r = await receiver(() => ({ status: 410 }));
    const ep = await createEndpoint({ db: f.opened.db, actor: ADMIN, input: { url: r.url }, env: f.env });
    const w = worker();
    await f.admit("rm -rf one", "s-410");
    await run(w);
    const [row] = await f.opened.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, ep.endpoint.id));
    expect(row).toMatchObject({ enabled: false });
    expect(row!.disabledReason).toMatch(/410/);
    await f.admit("rm -rf two", "s-410");
    await run(w);
    expect(r.requests).toHaveLength(1);
    expect((await deliveriesOf(ep.endpoint.id)).map((d) => d.status)).toEqual(["failed"]);
  });

  it("redelivers with the same webhook-id and continues the attempt log", async () => {
    const r = await receiver();
    const ep = await createEndpoint({ db: f.opened.db, actor: ADMIN, input: { url: r.url }, env: f.env });
    const w = worker();
    await f.admit("docker compose up", "s-redeliver");
    await run(w);
    const [d] = await deliveriesOf(ep.endpoint.id);
    await redeliver({ db: f.opened.db, actor: ADMIN, endpointId: ep.endpoint.id, deliveryId: d!.id });
    await run(w);
    expect(r.requests).toHaveLength(2);
    expect(r.requests[0]!.headers["webhook-id"]).toBe(r.requests[1]!.headers["webhook-id"]);
    expect((await listDeliveries(f.opened.db, { endpointId: ep.endpoint.id }))[0]).toMatchObject({
      status: "delivered",
      attempts: 2,
    });
  });

  it("the test button sends one signed message and reports status, latency and body", async () => {
    const r = await receiver(() => ({ status: 202, body: "accepted " + "x".repeat(2000) }));
    const ep = await createEndpoint({ db: f.opened.db, actor: ADMIN, input: { url: r.url }, env: f.env });
    const result = await sendTest({ db: f.opened.db, actor: ADMIN, endpointId: ep.endpoint.id, env: f.env });
    expect(result).toMatchObject({ ok: true, statusCode: 202, error: null });
    expect(result.body!.startsWith("accepted")).toBe(true);
    expect(result.body!.length).toBeLessThanOrEqual(500);
    expect(JSON.parse(r.requests[0]!.body)).toMatchObject({ type: "webhook.test", version: 1 });
    expect(verifyWebhook(r.requests[0]!.headers as Record<string, string>, r.requests[0]!.body, ep.secret).ok).toBe(
      true,
    );
    const log = await listDeliveries(f.opened.db, { endpointId: ep.endpoint.id });
    expect(log[0]).toMatchObject({ eventType: "webhook.test", status: "delivered", log: [{ statusCode: 202 }] });
    const r2 = await receiver(() => ({ status: 500, body: "boom" }));
    const ep2 = await createEndpoint({ db: f.opened.db, actor: ADMIN, input: { url: r2.url }, env: f.env });
    expect(await sendTest({ db: f.opened.db, actor: ADMIN, endpointId: ep2.endpoint.id, env: f.env })).toMatchObject({
      ok: false,
      statusCode: 500,
      body: "boom",
    });
  });

  it("with a delay, sends only if the card is still pending then", async () => {
    const r = await receiver();
    const clock = { now: new Date(Date.now() + 5000) };
    const env = { ...f.env, now: () => clock.now };
    const ep = await createEndpoint({ db: f.opened.db, actor: ADMIN, input: { url: r.url, delaySeconds: 60 }, env });
    const w = worker(env);
    const answered = await f.admit("rm -rf a", "s-delay");
    const waiting = await f.admit("rm -rf b", "s-delay");
    await run(w);
    expect(r.requests).toHaveLength(0);
    const card = await getCardUnchecked(f.opened.db, answered);
    await settleCard({
      db: f.opened.db,
      actor: ADMIN,
      cardId: answered,
      input: { outcome: "allow", remember: "once", hash: card.hash },
      client: "web",
    });
    clock.now = new Date(clock.now.getTime() + 61_000);
    await run(w);
    expect(r.requests.map((q) => JSON.parse(q.body).data.card.id)).toEqual([waiting]);
    const statuses = (await deliveriesOf(ep.endpoint.id)).map((d) => d.status).sort();
    expect(statuses).toEqual(["delivered", "skipped"]);
  });

  it("a slow endpoint does not delay a fast one, and admission never waits for either", async () => {
    // The slow endpoint answers only when the test lets it, so all of this happens while it holds its request:
    // a delivery or an admission that waited for it would never finish (no clock involved).
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const slow = await receiver(async () => {
      await held;
      return { status: 200 };
    });
    const fast = await receiver();
    await createEndpoint({ db: f.opened.db, actor: ADMIN, input: { url: slow.url }, env: f.env });
    await createEndpoint({ db: f.opened.db, actor: ADMIN, input: { url: fast.url }, env: f.env });
    // A request timeout far beyond the wait below: a worker that sent one request at a time would reach the
    // fast endpoint only after the slow one, i.e. never while it is held.
    const w = startNotifyWorker({ db: f.opened.db, env: { ...f.env, timeoutMs: 600_000 }, pollMs: 500 });
    workers.push(w);
    try {
      await f.admit("npm publish", "s-slow");
      await eventually(() => slow.requests.length === 1 && fast.requests.length === 1, 30_000);
      expect(JSON.parse(fast.requests[0]!.body).data.card.id).toBe(JSON.parse(slow.requests[0]!.body).data.card.id);
    } finally {
      release();
    }
    await w.idle();
  });
});
