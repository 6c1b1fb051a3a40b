/**
 * Issue 18, HIGH 3 and MEDIUM 4: the passkey requirement and step-up do not yield to a cookie, a step-up in one
 * session never covers another, a person's first passkey is announced to their other sessions, and an approval
 * assertion is bound to a server-random, single-use challenge for one card, outcome and scope.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { NextRequest } from "next/server";
import { openDb, setServerDb, type OpenedDb } from "@/db/client";
import { cards, memberships, sessions, users, workspaces } from "@/db/schema";
import { passkeyEnrolmentNotices } from "@/lib/auth/passkeys";
import { actorFromSessionToken, openSession } from "@/lib/auth/sessions";
import { hashToken } from "@/lib/auth/tokens";
import { SoftAuthenticator } from "@/test/support/soft-authenticator";
import { notifyFixture, type NotifyFixture } from "@/test/support/notify";
import * as passkeysRoute from "@/app/api/v1/passkeys/route";
import * as passkeyOptions from "@/app/api/v1/passkeys/options/route";
import * as passkeyOne from "@/app/api/v1/passkeys/[id]/route";
import * as stepUpRoute from "@/app/api/v1/passkeys/step-up/route";
import * as wsSettings from "@/app/api/v1/workspaces/[id]/settings/route";
import * as webhooksRoute from "@/app/api/v1/webhooks/route";
import * as webhookOne from "@/app/api/v1/webhooks/[id]/route";
import * as invitesRoute from "@/app/api/v1/invites/route";
import * as answerRoute from "@/app/api/v1/cards/[id]/answer/route";
import * as answerOptions from "@/app/api/v1/cards/[id]/passkey-options/route";

type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
let opened: OpenedDb;
let f: NotifyFixture;
let root: string;
const savedHome = process.env.HOME;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), "passkey-doors-"));
  opened = await openDb({ kind: "embedded" });
  setServerDb(opened);
  f = await notifyFixture({ opened, root, workspaceId: "w1" });
  process.env.HOME = f.home;
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
  { cookie, body, params }: { cookie: string; body?: unknown; params?: Record<string, string> },
) {
  const headers: Record<string, string> = {
    origin: "http://localhost:3000",
    "user-agent": "vitest",
    cookie: `cockpit_session=${cookie}`,
  };
  if (body !== undefined) headers["content-type"] = "application/json";
  return handler(
    new NextRequest(new URL("/x", "http://localhost:3000"), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    { params: Promise.resolve(params ?? {}) },
  );
}
async function person(id: string, role: "approver" | "admin", workspaceId = "w1") {
  await opened.db.insert(users).values({ id, name: id });
  await opened.db.insert(memberships).values({ id: `m-${id}`, userId: id, workspaceId, role });
  return (await opened.db.transaction((tx) => openSession(tx, { userId: id, signIn: "link", userAgent: "vitest" })))
    .sessionToken;
}
const newSession = async (userId: string) =>
  (
    await opened.db.transaction((tx) =>
      openSession(tx, { userId, signIn: "link", userAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/150" }),
    )
  ).sessionToken;
async function register(cookie: string, name: string) {
  const device = new SoftAuthenticator();
  const options = await send(passkeyOptions.POST, "POST", { cookie });
  if (options.status !== 200) return { device, status: options.status, body: await options.json() };
  const res = await send(passkeysRoute.POST, "POST", {
    cookie,
    body: { name, response: device.register((await options.json()) as { challenge: string }) },
  });
  return { device, status: res.status, body: await res.json() };
}
async function stepUp(cookie: string, key: SoftAuthenticator) {
  const options = (await (await send(stepUpRoute.POST, "POST", { cookie, body: {} })).json()) as { challenge: string };
  const res = await send(stepUpRoute.POST, "POST", { cookie, body: { response: key.assert(options.challenge) } });
  expect(res.status, await res.clone().text()).toBe(200);
}
const expectStepUp = async (res: Response) => {
  expect(res.status).toBe(403);
  expect(await res.json()).toMatchObject({ details: { stepUp: true } });
};

describe("with only a session cookie, a passkey holder's security cannot be lowered", () => {
  let cookie: string;
  let key: SoftAuthenticator;
  let hookId: string;

  beforeAll(async () => {
    await opened.db.insert(workspaces).values({ id: "w-sec", path: path.join(root, "sec"), name: "sec" });
    cookie = await person("u-ada", "admin", "w-sec");
    // Before any passkey: adding a webhook and a strict workspace need no step-up.
    const hook = await send(webhooksRoute.POST, "POST", {
      cookie,
      body: { url: "http://127.0.0.1:9/h", workspace: "w-sec" },
    });
    expect(hook.status).toBe(201);
    hookId = ((await hook.json()) as { id: string }).id;
    const first = await register(cookie, "Ada's phone");
    expect(first.status).toBe(201);
    key = first.device;
    expect(
      (await send(wsSettings.PUT, "PUT", { cookie, params: { id: "w-sec" }, body: { requirePasskey: true } })).status,
    ).toBe(200);
    await opened.db
      .update(sessions)
      .set({ steppedUpAt: null })
      .where(eq(sessions.tokenHash, hashToken(cookie)));
  });

  it("enrolling another passkey, removing one, turning the requirement off, retargeting a webhook and inviting above viewer need a fresh passkey", async () => {
    await expectStepUp(await send(passkeyOptions.POST, "POST", { cookie }));
    await expectStepUp(await send(passkeyOne.DELETE, "DELETE", { cookie, params: { id: key.id } }));
    await expectStepUp(
      await send(wsSettings.PUT, "PUT", { cookie, params: { id: "w-sec" }, body: { requirePasskey: false } }),
    );
    await expectStepUp(
      await send(webhookOne.PATCH, "PATCH", {
        cookie,
        params: { id: hookId },
        body: { url: "http://127.0.0.1:9/attacker" },
      }),
    );
    await expectStepUp(
      await send(invitesRoute.POST, "POST", { cookie, body: { role: "admin", workspaces: ["w-sec"] } }),
    );
    // Raising security and harmless changes need none.
    expect(
      (await send(wsSettings.PUT, "PUT", { cookie, params: { id: "w-sec" }, body: { requirePasskey: true } })).status,
    ).toBe(200);
    expect(
      (await send(webhookOne.PATCH, "PATCH", { cookie, params: { id: hookId }, body: { delaySeconds: 30 } })).status,
    ).toBe(200);
    expect(
      (await send(invitesRoute.POST, "POST", { cookie, body: { role: "viewer", workspaces: ["w-sec"] } })).status,
    ).toBe(201);
    const [ws] = await opened.db.select().from(workspaces).where(eq(workspaces.id, "w-sec"));
    expect(ws!.requirePasskey).toBe(true);
  });

  it("a step-up in one session never covers another session of the same person", async () => {
    const other = await newSession("u-ada");
    await stepUp(cookie, key);
    await expectStepUp(
      await send(wsSettings.PUT, "PUT", { cookie: other, params: { id: "w-sec" }, body: { requirePasskey: false } }),
    );
    expect(
      (await send(wsSettings.PUT, "PUT", { cookie, params: { id: "w-sec" }, body: { requirePasskey: false } })).status,
    ).toBe(200);
  });
});

describe("a person's first passkey is announced to their other sessions", () => {
  it("the older session sees it and removes it without a passkey; sessions opened later do not", async () => {
    const mine = await person("u-bea", "approver");
    // An agent that minted a login link opens its own session and enrols the first passkey before Bea does.
    const intruder = await newSession("u-bea");
    const enrolled = await register(intruder, "totally Bea");
    expect(enrolled.status).toBe(201);
    const bea = (await actorFromSessionToken(opened.db, mine))!;
    if (bea.kind !== "user") throw new Error("expected a person");
    const notices = await passkeyEnrolmentNotices(opened.db, bea);
    expect(notices).toMatchObject([{ id: enrolled.device.id, name: "totally Bea", signIn: "link" }]);
    expect(notices[0]!.device).toMatch(/Chrome/);
    // The intruder's own session is not told about its own enrolment…
    const intruderActor = (await actorFromSessionToken(opened.db, intruder))!;
    if (intruderActor.kind !== "user") throw new Error("expected a person");
    expect(await passkeyEnrolmentNotices(opened.db, intruderActor)).toEqual([]);
    // …and a session opened after the enrolment can neither see it nor remove it without a passkey.
    const later = await newSession("u-bea");
    await expectStepUp(await send(passkeyOne.DELETE, "DELETE", { cookie: later, params: { id: enrolled.device.id } }));
    // Bea's older session removes it at once.
    const removed = await send(passkeyOne.DELETE, "DELETE", { cookie: mine, params: { id: enrolled.device.id } });
    expect(removed.status, await removed.clone().text()).toBe(200);
    expect(await passkeyEnrolmentNotices(opened.db, bea)).toEqual([]);
  });
});

describe("approval assertions are single-use and bound to one card", () => {
  it("an assertion cannot approve a second card with the same command, and asking again never re-arms it", async () => {
    const cookie = await person("u-cid", "approver");
    const first = await register(cookie, "Cid's key");
    expect(first.status).toBe(201);
    const key = first.device;
    await opened.db.update(workspaces).set({ requirePasskey: true }).where(eq(workspaces.id, "w1"));
    try {
      const options = async (id: string) =>
        (
          (await (
            await send(answerOptions.POST, "POST", { cookie, params: { id }, body: { outcome: "allow" } })
          ).json()) as { challenge: string }
        ).challenge;
      const a = await f.admit("git push origin replay", "replay-1");
      const [cardA] = await opened.db.select().from(cards).where(eq(cards.id, a));
      const challengeA = await options(a);
      // Two option requests for the same answer give two different server-random challenges.
      expect(await options(a)).not.toBe(challengeA);
      const assertion = key.assert(challengeA);
      const ok = await send(answerRoute.POST, "POST", {
        cookie,
        params: { id: a },
        body: { outcome: "allow", hash: cardA!.hash, passkey: assertion },
      });
      expect(ok.status, await ok.clone().text()).toBe(200);

      // The same command again, in the same session: the old assertion is refused…
      const b = await f.admit("git push origin replay", "replay-1");
      const [cardB] = await opened.db.select().from(cards).where(eq(cards.id, b));
      const replay = await send(answerRoute.POST, "POST", {
        cookie,
        params: { id: b },
        body: { outcome: "allow", hash: cardB!.hash, passkey: assertion },
      });
      expect(replay.status).toBe(403);
      // …even after options for the first card are asked for again (nothing is re-armed).
      await send(answerOptions.POST, "POST", { cookie, params: { id: a }, body: { outcome: "allow" } });
      const again = await send(answerRoute.POST, "POST", {
        cookie,
        params: { id: b },
        body: { outcome: "allow", hash: cardB!.hash, passkey: assertion },
      });
      expect(again.status).toBe(403);
      expect((await opened.db.select().from(cards).where(eq(cards.id, b)))[0]!.status).toBe("pending");
    } finally {
      await opened.db.update(workspaces).set({ requirePasskey: false }).where(eq(workspaces.id, "w1"));
    }
  });
});

describe("who may Always allow", () => {
  it("an approver writes the engine's narrow rule (and the card names their role); a tool-wide one needs an admin with a fresh passkey", async () => {
    const approver = await person("u-dan", "approver");
    const a = await f.admit("docker compose up always-dan", "always-dan");
    const [cardA] = await opened.db.select().from(cards).where(eq(cards.id, a));
    const saved = await send(answerRoute.POST, "POST", {
      cookie: approver,
      params: { id: a },
      body: { outcome: "allow", remember: "workspace", hash: cardA!.hash },
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect(((await saved.json()) as { card: { settlement: unknown } }).card.settlement).toMatchObject({
      by: "u-dan",
      role: "approver",
      remember: "workspace",
    });

    // A card whose only rule to remember is tool-wide (as older engines proposed).
    const wideCard = async (session: string) => {
      const id = await f.admit(`terraform apply ${session}`, session);
      await opened.db
        .update(cards)
        .set({ remember: { session: [], workspace: ["Bash(*)"], workspaceStore: ".claude/settings.local.json" } })
        .where(eq(cards.id, id));
      return (await opened.db.select().from(cards).where(eq(cards.id, id)))[0]!;
    };
    const wide = { outcome: "allow", remember: "workspace", confirmToolWide: true };
    const b = await wideCard("wide-dan");
    const byApprover = await send(answerRoute.POST, "POST", {
      cookie: approver,
      params: { id: b.id },
      body: { ...wide, hash: b.hash },
    });
    expect(byApprover.status).toBe(403);
    expect(((await byApprover.json()) as { error: string }).error).toMatch(/admin role/);

    const admin = await person("u-eve", "admin");
    const { device } = await register(admin, "Eve's key");
    await opened.db
      .update(sessions)
      .set({ steppedUpAt: null })
      .where(eq(sessions.tokenHash, hashToken(admin)));
    await expectStepUp(
      await send(answerRoute.POST, "POST", { cookie: admin, params: { id: b.id }, body: { ...wide, hash: b.hash } }),
    );
    await stepUp(admin, device);
    const byAdmin = await send(answerRoute.POST, "POST", {
      cookie: admin,
      params: { id: b.id },
      body: { ...wide, hash: b.hash },
    });
    expect(byAdmin.status, await byAdmin.clone().text()).toBe(200);
  });
});
