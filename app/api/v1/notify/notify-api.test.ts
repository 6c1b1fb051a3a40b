import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { NextRequest } from "next/server";
import { openDb, setServerDb, type OpenedDb } from "@/db/client";
import { auditEvents, cards, notifyActionTokens, workspaces } from "@/db/schema";
import { LOCAL_CREDENTIAL_ENV } from "@/lib/auth/local-credential";
import { personHeaders } from "@/test/support/auth";
import { hashToken } from "@/lib/auth/tokens";
import { getCardUnchecked } from "@/lib/cards";
import { ADMIN, notifyFixture, startReceiver, type NotifyFixture, type Receiver } from "@/test/support/notify";
import { startNotifyWorker } from "@/lib/notify/worker";
import * as webhooks from "@/app/api/v1/webhooks/route";
import * as testRoute from "@/app/api/v1/webhooks/[id]/test/route";
import * as action from "@/app/api/v1/notify/actions/[token]/route";
import * as allowHosts from "@/app/api/v1/notify/allow-hosts/route";
import * as one from "@/app/api/v1/webhooks/[id]/route";
import * as deliveries from "@/app/api/v1/webhooks/[id]/deliveries/route";
import * as redeliverRoute from "@/app/api/v1/webhooks/[id]/deliveries/[deliveryId]/redeliver/route";
import { createEndpoint } from "@/lib/notify";

const LOCAL = "cpc_notify-test-local-credential";
let opened: OpenedDb;
let f: NotifyFixture;
let ntfy: Receiver;
let root: string;
const originalHome = process.env.HOME;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), "notify-api-"));
  process.env[LOCAL_CREDENTIAL_ENV] = hashToken(LOCAL);
  opened = await openDb({ kind: "embedded" });
  setServerDb(opened);
  f = await notifyFixture({ opened, root });
  process.env.HOME = f.home;
  ntfy = await startReceiver(() => ({ status: 200, body: '{"id":"x"}' }));
  asOwner = await personHeaders(opened.db);
});
afterAll(async () => {
  process.env.HOME = originalHome;
  await ntfy.close();
  await f.cleanup();
  await opened.close();
  rmSync(root, { recursive: true, force: true });
});

const call = (
  handler: (req: NextRequest, ctx: never) => Promise<Response>,
  url: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string>; params?: Record<string, string> } = {},
) =>
  handler(
    new NextRequest(`http://localhost:3000${url}`, {
      method: init.method ?? "GET",
      headers: { ...(init.body !== undefined ? { "content-type": "application/json" } : {}), ...init.headers },
      body: init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body),
    }),
    { params: Promise.resolve(init.params ?? {}) } as never,
  );
/** Webhooks are managed from a person's web session (the local CLI credential is refused: it is a door). */
let asOwner: Record<string, string>;

describe("POST /api/v1/webhooks", () => {
  it("creates an endpoint: 201 with the id and a whsec_ secret shown once", async () => {
    const res = await call(webhooks.POST, "/api/v1/webhooks", {
      method: "POST",
      headers: asOwner,
      body: { url: ntfy.url, format: "json", events: ["card.admitted", "card.settled"] },
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.id).toMatch(/^ep_/);
    expect(body.secret).toMatch(/^whsec_/);
    const list = await (await call(webhooks.GET, "/api/v1/webhooks", { headers: asOwner })).json();
    expect(JSON.stringify(list)).not.toContain(body.secret);
    const audit = await opened.db.select().from(auditEvents).where(eq(auditEvents.action, "webhook.created"));
    expect(JSON.stringify(audit)).not.toContain(body.secret);
    const test = await call(testRoute.POST, `/api/v1/webhooks/${body.id}/test`, {
      method: "POST",
      headers: asOwner,
      params: { id: body.id },
    });
    expect(await test.json()).toMatchObject({ result: { ok: true, statusCode: 200, body: '{"id":"x"}' } });
  });

  it.each([
    ["http://10.0.0.1/hook", /private/],
    ["http://169.254.169.254/latest/meta-data", /link-local/],
    ["file:///etc/passwd", /only http and https/],
  ])("refuses %s with 400 and the reason", async (url, reason) => {
    const res = await call(webhooks.POST, "/api/v1/webhooks", {
      method: "POST",
      headers: asOwner,
      body: { url, format: "json" },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(reason);
  });

  it("needs the admin role and refuses cross-site cookie posts", async () => {
    expect((await call(webhooks.POST, "/api/v1/webhooks", { method: "POST", body: { url: ntfy.url } })).status).toBe(
      403,
    );
    expect((await call(webhooks.GET, "/api/v1/webhooks")).status).toBe(401);
  });
});

describe("endpoint management routes", () => {
  it("edits the allow list, disables and re-enables, lists deliveries with attempts and redelivers", async () => {
    const put = await call(allowHosts.PUT, "/api/v1/notify/allow-hosts", {
      method: "PUT",
      headers: asOwner,
      body: { hosts: ["127.0.0.1", "NTFY.lan"] },
    });
    expect(await put.json()).toMatchObject({ hosts: ["127.0.0.1", "ntfy.lan"] });
    const bad = await call(allowHosts.PUT, "/api/v1/notify/allow-hosts", {
      method: "PUT",
      headers: asOwner,
      body: { hosts: ["http://x/"] },
    });
    expect(bad.status).toBe(400);

    const created = await (
      await call(webhooks.POST, "/api/v1/webhooks", { method: "POST", headers: asOwner, body: { url: ntfy.url } })
    ).json();
    const params = { id: created.id };
    const off = await call(one.PATCH, `/api/v1/webhooks/${created.id}`, {
      method: "PATCH",
      headers: asOwner,
      body: { enabled: false, delaySeconds: 30 },
      params,
    });
    expect(await off.json()).toMatchObject({ endpoint: { enabled: false, delaySeconds: 30 } });
    const refused = await call(one.PATCH, `/api/v1/webhooks/${created.id}`, {
      method: "PATCH",
      headers: asOwner,
      body: { url: "http://192.168.9.9/" },
      params,
    });
    expect(refused.status).toBe(400);
    await call(one.PATCH, `/api/v1/webhooks/${created.id}`, {
      method: "PATCH",
      headers: asOwner,
      body: { enabled: true, delaySeconds: 0 },
      params,
    });

    const id = await f.admit("rm -rf routes", "s-routes");
    const w = startNotifyWorker({ db: opened.db, env: f.env, pollMs: 0 });
    await w.tick();
    await w.idle();
    const log = await (
      await call(deliveries.GET, `/api/v1/webhooks/${created.id}/deliveries`, { headers: asOwner, params })
    ).json();
    const delivery = log.deliveries.find((d: { cardId: string }) => d.cardId === id);
    expect(delivery).toMatchObject({
      eventType: "card.admitted",
      status: "delivered",
      attempts: 1,
      log: [{ statusCode: 200 }],
    });
    const again = await call(redeliverRoute.POST, "/x", {
      method: "POST",
      headers: asOwner,
      params: { id: created.id, deliveryId: delivery.id },
    });
    expect(again.status).toBe(200);
    await w.tick();
    await w.stop();
    const detail = await (await call(one.GET, `/api/v1/webhooks/${created.id}`, { headers: asOwner, params })).json();
    expect(detail.deliveries.find((d: { id: string }) => d.id === delivery.id)).toMatchObject({
      status: "delivered",
      attempts: 2,
    });
    expect((await call(one.DELETE, "/x", { method: "DELETE", headers: asOwner, params })).status).toBe(200);
    expect((await call(one.GET, "/x", { headers: asOwner, params })).status).toBe(404);
  });
});

describe("ntfy Approve / Deny buttons", () => {
  async function deliverCard(command: string) {
    const id = await f.admit(command, `s-${command}`);
    const w = startNotifyWorker({ db: opened.db, env: f.env, pollMs: 0 });
    await w.tick();
    await w.stop();
    const sent = ntfy.requests.map((r) => JSON.parse(r.body)).find((b) => b.click?.endsWith(id));
    expect(sent).toBeDefined();
    return { id, sent };
  }
  const press = (button: { url: string; headers: Record<string, string>; body: string }, body = button.body) => {
    const u = new URL(button.url);
    const token = u.pathname.split("/").pop()!;
    return call(action.POST, u.pathname, { method: "POST", headers: button.headers, body, params: { token } });
  };

  it("the Approve button's request settles the card once; reuse → 409; Deny token cannot approve → 403", async () => {
    await createEndpoint({
      db: opened.db,
      actor: ADMIN,
      input: { url: `${ntfy.url.replace("/hook", "")}/approvals-topic`, format: "ntfy", ntfyToken: "tk_e2eaccess" },
      env: f.env,
    });
    const { id, sent } = await deliverCard("rm -rf dist");
    expect(sent).toMatchObject({ topic: "approvals-topic", priority: 4, click: `https://cockpit.example/cards/${id}` });
    const request = ntfy.requests.find((r) => r.body.includes(id) && r.body.includes(`"topic"`))!;
    expect(request.url).toBe("/");
    expect(request.headers.authorization).toBe("Bearer tk_e2eaccess");
    const [approve, deny, view] = sent.actions;
    expect(approve).toMatchObject({ action: "http", label: "Approve", method: "POST", clear: true });
    expect(deny).toMatchObject({ action: "http", label: "Deny", clear: true });
    expect(view).toMatchObject({ action: "view", url: `https://cockpit.example/cards/${id}` });
    expect(approve.url).toMatch(/^https:\/\/cockpit\.example\/api\/v1\/notify\/actions\/cna_/);
    // Only hashes are stored.
    const tokens = await opened.db.select().from(notifyActionTokens).where(eq(notifyActionTokens.cardId, id));
    expect(JSON.stringify(tokens)).not.toContain(approve.url.split("/").pop());

    const denyOnApprove = await press(deny, JSON.stringify({ card: id, outcome: "allow" }));
    expect(denyOnApprove.status).toBe(403);
    expect((await getCardUnchecked(opened.db, id)).status).toBe("pending");

    const ok = await press(approve);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ status: "allowed", card: id });
    const card = await getCardUnchecked(opened.db, id);
    expect(card.settlement).toMatchObject({ outcome: "allow", remember: "once", via: "ntfy" });

    const again = await press(approve);
    expect(again.status).toBe(409);
    const lateDeny = await press(deny);
    expect(lateDeny.status).toBe(409);
    expect((await getCardUnchecked(opened.db, id)).status).toBe("allowed");
    const logs = JSON.stringify(await opened.db.select().from(auditEvents));
    expect(logs).not.toContain(approve.url.split("/").pop());
  });

  it("a token of card A used on card B → 403; an expired token → 410; an unknown one → 404", async () => {
    const a = await deliverCard("rm -rf a-dir");
    const b = await deliverCard("rm -rf b-dir");
    const res = await press(a.sent.actions[0], JSON.stringify({ card: b.id, outcome: "allow" }));
    expect(res.status).toBe(403);
    expect((await getCardUnchecked(opened.db, a.id)).status).toBe("pending");
    expect((await getCardUnchecked(opened.db, b.id)).status).toBe("pending");

    await opened.db
      .update(notifyActionTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(notifyActionTokens.cardId, b.id));
    expect((await press(b.sent.actions[1])).status).toBe(410);
    expect((await getCardUnchecked(opened.db, b.id)).status).toBe("pending");

    const unknown = {
      ...a.sent.actions[0],
      url: `https://cockpit.example/api/v1/notify/actions/cna_${"A".repeat(43)}`,
    };
    expect((await press(unknown)).status).toBe(404);

    // The Deny button denies.
    expect((await press(a.sent.actions[1])).status).toBe(200);
    const [row] = await opened.db.select().from(cards).where(eq(cards.id, a.id));
    expect(row).toMatchObject({ status: "denied", settledVia: "ntfy" });
  });

  it("in a workspace whose approvals need a passkey, the message only opens the card (no Approve/Deny)", async () => {
    await opened.db.update(workspaces).set({ requirePasskey: true }).where(eq(workspaces.id, f.workspaceId));
    try {
      const { id, sent } = await deliverCard("rm -rf build-passkey");
      expect(sent.click).toBe(`https://cockpit.example/cards/${id}`);
      const labels = ((sent.actions ?? []) as { label: string }[]).map((a) => a.label);
      expect(labels).not.toContain("Approve");
      expect(labels).not.toContain("Deny");
      expect(await opened.db.select().from(notifyActionTokens).where(eq(notifyActionTokens.cardId, id))).toHaveLength(
        0,
      );
    } finally {
      await opened.db.update(workspaces).set({ requirePasskey: false }).where(eq(workspaces.id, f.workspaceId));
    }
  });
});
