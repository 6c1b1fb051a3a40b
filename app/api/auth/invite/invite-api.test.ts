// vitest: isolated (it loads lib/http/peer-preload.cjs, which patches node:http for the rest of the process)
/** Access cases: invites (expired, reused, guessed), session rotation and timeouts, removal and lowering mid-flight. */
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { NextRequest } from "next/server";
import { openDb, setServerDb, type OpenedDb } from "@/db/client";
import { auditEvents, cards, invites, memberships, sessions, users } from "@/db/schema";
import type { Actor } from "@/lib/auth/actor";
import { createInvite } from "@/lib/auth/invites";
import { ensureOwner } from "@/lib/auth/owner";
import { ownerActor, LOCAL_CLI } from "@/test/support/auth";
import { createOwnerLoginLink } from "@/lib/auth/login-links";
import { actorFromSessionToken, openSession } from "@/lib/auth/sessions";
import { randomToken } from "@/lib/auth/tokens";
import { settleCard } from "@/lib/cards";
import { PEER_HEADER } from "@/lib/http/client-key";
import { inviteThrottle } from "@/lib/http/throttle";
import { notifyFixture, type NotifyFixture } from "@/test/support/notify";
import * as acceptRoute from "@/app/api/auth/invite/route";
import * as loginRoute from "@/app/api/auth/login/route";
import * as meRoute from "@/app/api/v1/me/route";
import * as events from "@/app/api/v1/events/route";
import * as collaboratorOne from "@/app/api/v1/collaborators/[id]/route";
import * as answerRoute from "@/app/api/v1/cards/[id]/answer/route";

type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
/** Invites are a person's act (the local CLI credential is refused): the owner, signed in on the web. */
let OWNER: Actor;
let opened: OpenedDb;
let f: NotifyFixture;
let root: string;
const savedHome = process.env.HOME;

beforeAll(async () => {
  // As under `cockpit start`: the peer preload runs, so the peer header below stands for the socket address.
  createRequire(import.meta.url)("../../../../lib/http/peer-preload.cjs");
  root = mkdtempSync(path.join(os.tmpdir(), "invite-api-"));
  opened = await openDb({ kind: "embedded" });
  setServerDb(opened);
  f = await notifyFixture({ opened, root, workspaceId: "w1" });
  process.env.HOME = f.home;
  const owner = await ensureOwner(opened.db);
  OWNER = ownerActor({ userId: owner.id, name: owner.name });
});
afterAll(async () => {
  process.env.HOME = savedHome;
  await f.cleanup();
  await opened.close();
  rmSync(root, { recursive: true, force: true });
});

function send(
  handler: Handler,
  method: string,
  url: string,
  {
    cookie,
    body,
    params,
    ip = "10.0.0.1",
    signal,
    extra = {},
  }: {
    cookie?: string;
    body?: unknown;
    params?: Record<string, string>;
    ip?: string;
    signal?: AbortSignal;
    extra?: Record<string, string>;
  } = {},
) {
  const headers: Record<string, string> = {
    ...extra,
    origin: "http://localhost:3000",
    [PEER_HEADER]: ip,
    "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1",
  };
  if (cookie) headers.cookie = `cockpit_session=${cookie}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const req = new NextRequest(new URL(url, "http://localhost:3000"), {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  return handler(req, { params: Promise.resolve(params ?? {}) });
}
const cookieOf = (res: Response) => res.headers.get("set-cookie")?.match(/cockpit_session=([^;]+)/)?.[1] ?? null;
const invite = (role: "viewer" | "approver" | "admin", hours = 1) =>
  createInvite({
    db: opened.db,
    actor: OWNER,
    input: { role, workspaces: ["w1"], expiresInHours: hours },
    baseUrl: "https://cockpit.example",
  });
async function join(
  role: "viewer" | "approver" | "admin",
  ip = `10.1.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
) {
  const inv = await invite(role);
  const res = await send(acceptRoute.POST, "POST", "/api/auth/invite", {
    body: { token: inv.token, name: `${role}-person` },
    ip,
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { id: string };
  return { id: body.id, cookie: cookieOf(res)! };
}

describe("invites", () => {
  it("stores only the hash, builds the link from the public URL, and works once: reuse → 410", async () => {
    const inv = await invite("approver");
    expect(inv.url).toBe(`https://cockpit.example/invite?token=${inv.token}`);
    expect(JSON.stringify(await opened.db.select().from(invites))).not.toContain(inv.token);
    const first = await send(acceptRoute.POST, "POST", "/api/auth/invite", { body: { token: inv.token, name: "Ann" } });
    expect(first.status).toBe(200);
    const cookie = cookieOf(first)!;
    expect(first.headers.get("set-cookie")).toMatch(/HttpOnly; SameSite=Lax/);
    const me = await (await send(meRoute.GET, "GET", "/api/v1/me", { cookie })).json();
    expect(me).toMatchObject({ name: "Ann", owner: false, roles: [{ workspace: "w1", role: "approver" }] });
    const again = await send(acceptRoute.POST, "POST", "/api/auth/invite", { body: { token: inv.token, name: "Eve" } });
    expect(again.status).toBe(410);
    expect(((await again.json()) as { error: string }).error).toMatch(/invalid, expired or already used/);
  });

  it("a name the cockpit shows for its own actors is refused (400), and the invite stays usable", async () => {
    const inv = await invite("approver");
    for (const name of ["owner", "Local CLI", "agent:ci", "system", "Eve (owner)"]) {
      const res = await send(acceptRoute.POST, "POST", "/api/auth/invite", { body: { token: inv.token, name } });
      expect(res.status, name).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(/reserved|parentheses/);
    }
    const ok = await send(acceptRoute.POST, "POST", "/api/auth/invite", { body: { token: inv.token, name: "Eve" } });
    expect(ok.status).toBe(200);
  });

  it("an expired invite → 410, and invites last at most 7 days", async () => {
    const inv = await invite("viewer");
    await opened.db
      .update(invites)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invites.id, inv.id));
    const res = await send(acceptRoute.POST, "POST", "/api/auth/invite", {
      body: { token: inv.token, name: "Late" },
      ip: "10.9.9.9",
    });
    expect(res.status).toBe(410);
    await expect(
      createInvite({
        db: opened.db,
        actor: OWNER,
        input: { role: "viewer", workspaces: "all", expiresInHours: 24 * 7 + 1 },
        baseUrl: "x",
      }),
    ).rejects.toThrow();
  });

  it("1,000 random guesses: no hit, and 429 with Retry-After after the threshold", async () => {
    inviteThrottle.reset("peer:10.66.66.66");
    const statuses = new Map<number, number>();
    const order: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 1_000; i++) {
      const res = await send(acceptRoute.POST, "POST", "/api/auth/invite", {
        body: { token: randomToken("cpi_"), name: "guess" },
        ip: "10.66.66.66",
      });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (i < 12) order.push(res.status);
      if (res.status === 429) retryAfter ??= res.headers.get("retry-after");
    }
    expect(statuses.get(200) ?? 0).toBe(0);
    // Ten free failures; the eleventh locks the address out; the lockout doubles (1 s, 2 s, 4 s…), so only a few more get through.
    expect(order).toEqual([...Array(11).fill(410), 429]);
    expect(statuses.get(410)).toBeLessThanOrEqual(20);
    expect(statuses.get(429)).toBeGreaterThanOrEqual(980);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    const hits = await opened.db.select().from(users).where(eq(users.name, "guess"));
    expect(hits).toHaveLength(0);
  }, 120_000);

  it("a valid invite still works from a client key that guessing locked out; X-Forwarded-For picks no new key", async () => {
    const ip = "10.77.77.77";
    inviteThrottle.reset(`peer:${ip}`);
    const guess = (extra: Record<string, string> = {}) =>
      send(acceptRoute.POST, "POST", "/api/auth/invite", {
        body: { token: randomToken("cpi_"), name: "g" },
        ip,
        extra,
      });
    for (let i = 0; i < 14; i++) await guess();
    expect((await guess()).status).toBe(429);
    // A forwarded-for header is ignored without COCKPIT_TRUST_PROXY: still locked out.
    expect((await guess({ "x-forwarded-for": "203.0.113.5" })).status).toBe(429);
    const inv = await invite("viewer");
    const ok = await send(acceptRoute.POST, "POST", "/api/auth/invite", {
      body: { token: inv.token, name: "Val" },
      ip,
    });
    expect(ok.status).toBe(200);
    // …and it does not reset the count: the next guess from that key is still refused.
    expect((await guess()).status).toBe(429);
  });
});

describe("sessions", () => {
  it("a new session id and token at login; the session the browser came with ends", async () => {
    const first = await createOwnerLoginLink({ db: opened.db, actor: LOCAL_CLI, input: { ttlSeconds: 60 } });
    const a = await send(loginRoute.POST, "POST", "/api/auth/login", { body: { token: first.token }, ip: "10.2.0.1" });
    const cookieA = cookieOf(a)!;
    const second = await createOwnerLoginLink({ db: opened.db, actor: LOCAL_CLI, input: { ttlSeconds: 60 } });
    const b = await send(loginRoute.POST, "POST", "/api/auth/login", {
      body: { token: second.token },
      cookie: cookieA,
      ip: "10.2.0.1",
    });
    const cookieB = cookieOf(b)!;
    expect(cookieB).not.toBe(cookieA);
    const actorB = await actorFromSessionToken(opened.db, cookieB);
    expect(actorB).not.toBeNull();
    expect(await actorFromSessionToken(opened.db, cookieA)).toBeNull();
    expect((await send(meRoute.GET, "GET", "/api/v1/me", { cookie: cookieA })).status).toBe(401);
  });

  it("an idle session ends; the absolute lifetime ends it too", async () => {
    const { cookie, id } = await join("viewer");
    const [row] = await opened.db.select().from(sessions).where(eq(sessions.userId, id));
    await opened.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 8 * 86_400_000) })
      .where(eq(sessions.id, row!.id));
    expect((await send(meRoute.GET, "GET", "/api/v1/me", { cookie })).status).toBe(401);
    const [ended] = await opened.db.select().from(sessions).where(eq(sessions.id, row!.id));
    expect(ended!.endedBy).toBe("idle timeout");
    const other = await join("viewer");
    await opened.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(sessions.userId, other.id));
    expect((await send(meRoute.GET, "GET", "/api/v1/me", { cookie: other.cookie })).status).toBe(401);
  });
});

describe("removal and lowering take effect at once", () => {
  it("a removed collaborator's open event stream closes, and their cookie stops working", async () => {
    const { id, cookie } = await join("viewer");
    const res = await send(events.GET, "GET", "/api/v1/events", { cookie });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    await reader.read(); // ": connected"
    const ownerUserId =
      (await opened.db.select().from(users).where(eq(users.isOwner, true)))[0]?.id ?? (await ownerId());
    const removed = await send(collaboratorOne.DELETE, "DELETE", `/api/v1/collaborators/${id}`, {
      cookie: (await opened.db.transaction((tx) => openSession(tx, { userId: ownerUserId, signIn: "link" })))
        .sessionToken,
      params: { id },
    });
    expect(removed.status).toBe(200);
    const deadline = Date.now() + 3_000;
    let closed = false;
    while (Date.now() < deadline) {
      const chunk = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), 500))]);
      if (chunk && chunk.done) {
        closed = true;
        break;
      }
    }
    expect(closed, "the stream closed after the removal").toBe(true);
    expect((await send(meRoute.GET, "GET", "/api/v1/me", { cookie })).status).toBe(401);
  });

  it("a role lowered while an answer is in flight: the answer is refused inside the settle transaction", async () => {
    const { id, cookie } = await join("approver");
    const cardId = await f.admit("git push origin mid-answer", "s-mid");
    const actor = (await actorFromSessionToken(opened.db, cookie))!; // approver, as the request began
    await opened.db.update(memberships).set({ role: "viewer" }).where(eq(memberships.userId, id));
    const [card] = await opened.db.select().from(cards).where(eq(cards.id, cardId));
    await expect(
      settleCard({
        db: opened.db,
        actor,
        cardId,
        input: { outcome: "allow", remember: "once", hash: card!.hash },
        client: "web",
      }),
    ).rejects.toMatchObject({ status: 403 });
    const [after] = await opened.db.select().from(cards).where(eq(cards.id, cardId));
    expect(after!.status).toBe("pending");
    // And the next request sees the lowered role at the door.
    const res = await send(answerRoute.POST, "POST", `/api/v1/cards/${cardId}/answer`, {
      cookie,
      params: { id: cardId },
      body: { outcome: "allow", hash: card!.hash },
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toMatch(/approver role/);
  });

  it("an answer records the person, their role then, the session/device and the channel", async () => {
    const { id, cookie } = await join("approver");
    const cardId = await f.admit("git push origin attributed", "s-attr");
    const [card] = await opened.db.select().from(cards).where(eq(cards.id, cardId));
    const res = await send(answerRoute.POST, "POST", `/api/v1/cards/${cardId}/answer`, {
      cookie,
      params: { id: cardId },
      body: { outcome: "deny", hash: card!.hash },
    });
    expect(res.status).toBe(200);
    const rows = await opened.db.select().from(auditEvents).where(eq(auditEvents.target, cardId));
    // The typed audit actor: person, role then, session and server-derived channel in columns; device in detail.
    const settled = rows.find((r) => r.action === "card.resolved");
    expect(settled).toMatchObject({
      actor: "approver-person",
      actorType: "user",
      actorId: id,
      actorRole: "approver",
      actorChannel: "phone",
      actorSession: expect.any(String),
    });
    expect(settled?.detail).toMatchObject({ device: "Safari on iPhone", signIn: "invite" });
  });
});

async function ownerId(): Promise<string> {
  const { ensureOwner } = await import("@/lib/auth/owner");
  return (await ensureOwner(opened.db)).id;
}
