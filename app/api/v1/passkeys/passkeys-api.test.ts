/** Passkeys over the API with a software authenticator: register several, sign in, and approvals a passkey proves. */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { NextRequest } from "next/server";
import { openDb, setServerDb, type OpenedDb } from "@/db/client";
import { auditEvents, cards, memberships, sessions, users } from "@/db/schema";
import { LOCAL_CREDENTIAL_ENV } from "@/lib/auth/local-credential";
import { openSession } from "@/lib/auth/sessions";
import { SoftAuthenticator } from "@/test/support/soft-authenticator";
import { hashToken } from "@/lib/auth/tokens";
import { notifyFixture, type NotifyFixture } from "@/test/support/notify";
import { mintActionTokens, useActionToken } from "@/lib/notify/action-tokens";
import * as passkeysRoute from "@/app/api/v1/passkeys/route";
import * as passkeyOptions from "@/app/api/v1/passkeys/options/route";
import * as passkeyOne from "@/app/api/v1/passkeys/[id]/route";
import * as loginOptions from "@/app/api/auth/passkey/options/route";
import * as passkeyLogin from "@/app/api/auth/passkey/route";
import * as meRoute from "@/app/api/v1/me/route";
import * as answerRoute from "@/app/api/v1/cards/[id]/answer/route";
import * as answerOptions from "@/app/api/v1/cards/[id]/passkey-options/route";
import * as collaboratorOne from "@/app/api/v1/collaborators/[id]/route";
import * as webhooksRoute from "@/app/api/v1/webhooks/route";
import * as entriesAdd from "@/app/api/v1/entries/add/route";
import * as stepUpRoute from "@/app/api/v1/passkeys/step-up/route";
import * as wsSettings from "@/app/api/v1/workspaces/[id]/settings/route";

type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const LOCAL = "cpc_passkey-test";
let opened: OpenedDb;
let f: NotifyFixture;
let root: string;
let approver: string;
let admin: string;
const savedHome = process.env.HOME;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), "passkeys-api-"));
  process.env[LOCAL_CREDENTIAL_ENV] = hashToken(LOCAL);
  opened = await openDb({ kind: "embedded" });
  setServerDb(opened);
  f = await notifyFixture({ opened, root, workspaceId: "w1" });
  process.env.HOME = f.home;
  for (const [id, role] of [
    ["u-appr", "approver"],
    ["u-adm", "admin"],
  ] as const) {
    await opened.db.insert(users).values({ id, name: id === "u-appr" ? "Ann" : "Ada" });
    await opened.db.insert(memberships).values({ id: `m-${id}`, userId: id, workspaceId: "w1", role });
  }
  approver = (await opened.db.transaction((tx) => openSession(tx, { userId: "u-appr", signIn: "invite" })))
    .sessionToken;
  admin = (await opened.db.transaction((tx) => openSession(tx, { userId: "u-adm", signIn: "invite" }))).sessionToken;
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
  {
    cookie,
    bearer,
    body,
    params,
  }: { cookie?: string; bearer?: string; body?: unknown; params?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { origin: "http://localhost:3000", "user-agent": "vitest" };
  if (cookie) headers.cookie = `cockpit_session=${cookie}`;
  if (bearer) headers.authorization = `Bearer ${bearer}`;
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
/** A fresh passkey confirmation in the session `cookie` (the step-up sensitive changes need). */
async function stepUpWith(cookie: string, key: SoftAuthenticator) {
  const options = (await (await send(stepUpRoute.POST, "POST", { cookie, body: {} })).json()) as { challenge: string };
  const res = await send(stepUpRoute.POST, "POST", { cookie, body: { response: key.assert(options.challenge) } });
  expect(res.status, await res.clone().text()).toBe(200);
}
/** Approval options for one answer: the server-random challenge the passkey must sign. */
async function approvalOptions(cookie: string, cardId: string, outcome: "allow" | "deny", remember = "once") {
  const res = await send(answerOptions.POST, "POST", { cookie, params: { id: cardId }, body: { outcome, remember } });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { challenge: string }).challenge;
}
async function register(cookie: string, name: string, confirmWith?: SoftAuthenticator): Promise<SoftAuthenticator> {
  if (confirmWith) await stepUpWith(cookie, confirmWith);
  const device = new SoftAuthenticator();
  const options = (await (await send(passkeyOptions.POST, "POST", { cookie })).json()) as { challenge: string };
  const res = await send(passkeysRoute.POST, "POST", { cookie, body: { name, response: device.register(options) } });
  expect(res.status, await res.clone().text()).toBe(201);
  return device;
}
const cardRow = async (id: string) => (await opened.db.select().from(cards).where(eq(cards.id, id)))[0]!;

describe("passkeys", () => {
  let phone: SoftAuthenticator;

  it("a person registers several passkeys, names and removes them; a challenge works once", async () => {
    phone = await register(approver, "Ann's phone");
    // A second passkey needs a fresh confirmation with the first, in this session.
    const refused = await send(passkeyOptions.POST, "POST", { cookie: approver });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ details: { stepUp: true } });
    const laptop = await register(approver, "laptop", phone);
    let list = (await (await send(passkeysRoute.GET, "GET", { cookie: approver })).json()) as {
      passkeys: { id: string; name: string }[];
    };
    expect(list.passkeys.map((p) => p.name)).toEqual(["Ann's phone", "laptop"]);
    await send(passkeyOne.PATCH, "PATCH", {
      cookie: approver,
      params: { id: laptop.id },
      body: { name: "work laptop" },
    });
    expect((await send(passkeyOne.DELETE, "DELETE", { cookie: admin, params: { id: laptop.id } })).status).toBe(404);
    expect((await send(passkeyOne.DELETE, "DELETE", { cookie: approver, params: { id: laptop.id } })).status).toBe(200);
    list = (await (await send(passkeysRoute.GET, "GET", { cookie: approver })).json()) as typeof list;
    expect(list.passkeys.map((p) => p.name)).toEqual(["Ann's phone"]);
    // Replaying a registration whose challenge was used is refused.
    const options = (await (await send(passkeyOptions.POST, "POST", { cookie: approver })).json()) as {
      challenge: string;
    };
    const again = new SoftAuthenticator();
    const response = again.register(options);
    expect((await send(passkeysRoute.POST, "POST", { cookie: approver, body: { name: "x", response } })).status).toBe(
      201,
    );
    expect((await send(passkeysRoute.POST, "POST", { cookie: approver, body: { name: "y", response } })).status).toBe(
      410,
    );
    await send(passkeyOne.DELETE, "DELETE", { cookie: approver, params: { id: again.id } });
  });

  it("signs in with a passkey: a new session recorded as 'passkey'; the same assertion does not work twice", async () => {
    const options = (await (await send(loginOptions.POST, "POST")).json()) as { challenge: string };
    const assertion = phone.assert(options.challenge);
    const res = await send(passkeyLogin.POST, "POST", { body: { response: assertion } });
    expect(res.status, await res.clone().text()).toBe(200);
    const cookie = res.headers.get("set-cookie")!.match(/cockpit_session=([^;]+)/)![1]!;
    expect(await (await send(meRoute.GET, "GET", { cookie })).json()).toMatchObject({ id: "u-appr", name: "Ann" });
    const [row] = await opened.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(cookie)));
    expect(row!.signIn).toBe("passkey");
    expect((await send(passkeyLogin.POST, "POST", { body: { response: assertion } })).status).toBe(410);
  });

  it("in a passkey-required workspace only a passkey over exactly this card answers; it is stored and shown", async () => {
    expect(
      (await send(wsSettings.PUT, "PUT", { cookie: approver, params: { id: "w1" }, body: { requirePasskey: true } }))
        .status,
    ).toBe(403);
    expect(
      (await send(wsSettings.PUT, "PUT", { cookie: admin, params: { id: "w1" }, body: { requirePasskey: true } }))
        .status,
    ).toBe(200);

    const a = await f.admit("git push origin passkey-a", "pk-a");
    const b = await f.admit("git push origin passkey-b", "pk-b");
    const cardA = await cardRow(a);
    const cardB = await cardRow(b);

    // A cookie alone, the CLI credential and a notification action are refused.
    const noKey = await send(answerRoute.POST, "POST", {
      cookie: approver,
      params: { id: a },
      body: { outcome: "allow", hash: cardA.hash },
    });
    expect(noKey.status).toBe(403);
    expect(await noKey.json()).toMatchObject({ details: { needsPasskey: true } });
    const cli = await send(answerRoute.POST, "POST", {
      bearer: LOCAL,
      params: { id: a },
      body: { outcome: "allow", hash: cardA.hash },
    });
    expect(cli.status).toBe(403);
    const tokens = await mintActionTokens(opened.db, { cardId: a, endpointId: null });
    await expect(
      useActionToken({ db: opened.db, token: tokens.approve.url.split("/").pop()!, claim: {} }),
    ).rejects.toMatchObject({ status: 403 });

    // A genuine assertion for card A, replayed against card B: refused, and B stays pending.
    const forA = phone.assert(await approvalOptions(approver, a, "allow"));
    const forged = await send(answerRoute.POST, "POST", {
      cookie: approver,
      params: { id: b },
      body: { outcome: "allow", hash: cardB.hash, passkey: forA },
    });
    expect(forged.status).toBe(403);
    expect(((await forged.json()) as { error: string }).error).toMatch(/different card/);
    expect((await cardRow(b)).status).toBe("pending");
    // …and for another outcome or scope on the same card.
    const wrongOutcome = await send(answerRoute.POST, "POST", {
      cookie: approver,
      params: { id: a },
      body: { outcome: "deny", hash: cardA.hash, passkey: forA },
    });
    expect(wrongOutcome.status).toBe(403);

    // The right one settles, and the card and the audit say which passkey confirmed it.
    const ok = await send(answerRoute.POST, "POST", {
      cookie: approver,
      params: { id: a },
      body: { outcome: "allow", hash: cardA.hash, passkey: forA },
    });
    expect(ok.status, await ok.clone().text()).toBe(200);
    const body = (await ok.json()) as { card: { settlement: { passkey?: { name: string } } } };
    expect(body.card.settlement.passkey?.name).toBe("Ann's phone");
    const audit = await opened.db.select().from(auditEvents).where(eq(auditEvents.target, a));
    expect(audit.some((r) => (r.detail as { passkey?: { name: string } }).passkey?.name === "Ann's phone")).toBe(true);

    // Someone else's passkey does not answer for Ann.
    const stranger = new SoftAuthenticator();
    const fake = stranger.assert(await approvalOptions(approver, b, "deny"));
    const res = await send(answerRoute.POST, "POST", {
      cookie: approver,
      params: { id: b },
      body: { outcome: "deny", hash: cardB.hash, passkey: fake },
    });
    expect(res.status).toBe(403);
    await send(wsSettings.PUT, "PUT", { cookie: admin, params: { id: "w1" }, body: { requirePasskey: false } });
  });

  it("step-up: a passkey holder changes roles, adds webhooks and tool-wide allow rules only after a fresh confirmation", async () => {
    const adminKey = await register(admin, "Ada's key");
    await opened.db
      .update(sessions)
      .set({ steppedUpAt: null })
      .where(eq(sessions.tokenHash, hashToken(admin)));
    const target = "u-appr";
    const patch = () =>
      send(collaboratorOne.PATCH, "PATCH", {
        cookie: admin,
        params: { id: target },
        body: { roles: [{ workspace: "w1", role: "approver" }] },
      });
    const refused = await patch();
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ details: { stepUp: true } });
    const hook = await send(webhooksRoute.POST, "POST", {
      cookie: admin,
      body: { url: "http://127.0.0.1:9/h", workspace: "w1" },
    });
    expect(hook.status).toBe(403);
    const toolWide = await send(entriesAdd.POST, "POST", {
      cookie: admin,
      body: { workspace: "w1", agent: "claude-code", scope: "workspace", action: "allow", rule: "Bash" },
    });
    expect(toolWide.status).toBe(403);
    // A narrow rule needs no step-up.
    const narrow = await send(entriesAdd.POST, "POST", {
      cookie: admin,
      body: { workspace: "w1", agent: "claude-code", scope: "workspace", action: "allow", rule: "Bash(make lint)" },
    });
    expect(narrow.status).toBeLessThan(300);

    const options = (await (await send(stepUpRoute.POST, "POST", { cookie: admin, body: {} })).json()) as {
      challenge: string;
    };
    const confirmed = await send(stepUpRoute.POST, "POST", {
      cookie: admin,
      body: { response: adminKey.assert(options.challenge) },
    });
    expect(confirmed.status, await confirmed.clone().text()).toBe(200);
    expect((await patch()).status).toBe(200);
    expect(
      (
        await send(webhooksRoute.POST, "POST", {
          cookie: admin,
          body: { url: "http://127.0.0.1:9/h", workspace: "w1" },
        })
      ).status,
    ).toBe(201);
    // Five minutes later the confirmation has lapsed.
    await opened.db
      .update(sessions)
      .set({ steppedUpAt: new Date(Date.now() - 6 * 60_000) })
      .where(eq(sessions.tokenHash, hashToken(admin)));
    expect((await patch()).status).toBe(403);
    // A stranger's assertion does not step anyone up.
    const opt2 = (await (await send(stepUpRoute.POST, "POST", { cookie: admin, body: {} })).json()) as {
      challenge: string;
    };
    expect(
      (
        await send(stepUpRoute.POST, "POST", {
          cookie: admin,
          body: { response: new SoftAuthenticator().assert(opt2.challenge) },
        })
      ).status,
    ).toBe(403);
  });
});
