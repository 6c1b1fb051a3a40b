import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { openDb, setServerDb, type OpenedDb } from "@/db/client";
import { workspaces } from "@/db/schema";
import { createAgentToken } from "@/lib/auth/agent-tokens";
import { LOCAL_CREDENTIAL_ENV } from "@/lib/auth/local-credential";
import { hashToken } from "@/lib/auth/tokens";
import { admitCard } from "@/lib/cards";
import { actorFromAgentToken } from "@/lib/auth/agent-tokens";
import { TooManyRequestsError } from "@/lib/errors";
import * as login from "@/app/api/auth/login/route";
import * as agentCards from "@/app/api/agent/v1/cards/route";
import * as hook from "@/app/api/agent/v1/hooks/[agent]/route";
import * as cardsList from "@/app/api/v1/cards/route";
import * as cardOne from "@/app/api/v1/cards/[id]/route";
import * as workspacesRoute from "@/app/api/v1/workspaces/route";
import * as notifyAction from "@/app/api/v1/notify/actions/[token]/route";

const LOCAL = "cpc_test-local-credential";
let opened: OpenedDb;
let root: string;
let token: string;
const originalHome = process.env.HOME;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), "request-limits-"));
  mkdirSync(path.join(root, "project"));
  mkdirSync(path.join(root, "home"));
  process.env.HOME = path.join(root, "home");
  process.env[LOCAL_CREDENTIAL_ENV] = hashToken(LOCAL);
  opened = await openDb({ kind: "embedded" });
  setServerDb(opened);
  await opened.db.insert(workspaces).values([{ id: "w1", path: path.join(root, "project"), name: "project" }]);
  token = (
    await createAgentToken({ db: opened.db, actor: { kind: "local", name: "local-cli" }, input: { workspaceId: "w1" } })
  ).token;
});
afterAll(async () => {
  process.env.HOME = originalHome;
  await opened.close();
  rmSync(root, { recursive: true, force: true });
});

type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
function send(
  handler: Handler,
  url: string,
  body: string | ReadableStream<Uint8Array>,
  {
    bearer,
    headers = {},
    params = {},
  }: { bearer?: string; headers?: Record<string, string>; params?: Record<string, string> } = {},
) {
  const all: Record<string, string> = { "content-type": "application/json", ...headers };
  if (bearer) all.authorization = `Bearer ${bearer}`;
  else all.origin = "http://localhost:3000";
  const init = { method: "POST", headers: all, body, duplex: "half" } as ConstructorParameters<typeof NextRequest>[1];
  return handler(new NextRequest(new URL(url, "http://localhost:3000"), init), { params: Promise.resolve(params) });
}

/** An endless body that records how much of it the server pulled. */
function endless(chunk = 16 * 1024) {
  const pulled = { bytes: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled.bytes += chunk;
      controller.enqueue(new Uint8Array(chunk).fill(0x20));
    },
  });
  return { stream, pulled };
}

const nested = (depth: number) => `{"token":"${"x".repeat(20)}","n":${"[".repeat(depth)}${"]".repeat(depth)}}`;

describe("request body limits", () => {
  it("login refuses a body over 64 KiB by Content-Length, before reading it", async () => {
    const { stream, pulled } = endless();
    const res = await send(login.POST, "/api/auth/login", stream, { headers: { "content-length": String(300e6) } });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: "the body is larger than 64 KiB" });
    expect(res.headers.get("connection")).toBe("close");
    expect(pulled.bytes).toBeLessThanOrEqual(32 * 1024);
  });

  it("login stops reading an endless body without Content-Length at 64 KiB", async () => {
    const { stream, pulled } = endless();
    const res = await send(login.POST, "/api/auth/login", stream);
    expect(res.status).toBe(413);
    expect(pulled.bytes).toBeLessThan(64 * 1024 + 3 * 16 * 1024);
  });

  it("JSON nested deeper than 64 levels is 400, not 500; 64 levels still parse", async () => {
    const deep = await send(login.POST, "/api/auth/login", nested(30_000));
    expect(deep.status).toBe(400);
    expect(await deep.json()).toEqual({ error: "the body nests deeper than 64 levels" });
    const agentDeep = await send(agentCards.POST, "/api/agent/v1/cards", nested(65), { bearer: token });
    expect(agentDeep.status).toBe(400);
    const deepInput = `{"agent":"claude-code","sessionId":"d","tool":"Bash","input":{"command":"ls","x":${"[".repeat(200_000)}${"]".repeat(200_000)}}}`;
    const agentVeryDeep = await send(agentCards.POST, "/api/agent/v1/cards", deepInput, { bearer: token });
    expect(agentVeryDeep.status).toBe(400);
    const ok = await send(login.POST, "/api/auth/login", nested(63));
    expect(ok.status).not.toBe(400);
  });

  it("people's routes cap at 64 KiB; agent card inputs at 1 MiB", async () => {
    const big = JSON.stringify({ path: "/" + "a".repeat(100 * 1024) });
    const people = await send(workspacesRoute.POST, "/api/v1/workspaces", big, { bearer: LOCAL });
    expect(people.status).toBe(413);

    const card = (content: string) =>
      JSON.stringify({
        agent: "claude-code",
        sessionId: "big",
        tool: "Write",
        input: { file_path: path.join(root, "project", "big.txt"), content },
      });
    const fits = await send(agentCards.POST, "/api/agent/v1/cards", card("x".repeat(900 * 1024)), { bearer: token });
    expect(fits.status).toBeLessThan(300);
    const tooBig = await send(agentCards.POST, "/api/agent/v1/cards", card("x".repeat(1100 * 1024)), {
      bearer: token,
    });
    expect(tooBig.status).toBe(413);
    expect(await tooBig.json()).toEqual({ error: "the body is larger than 1 MiB" });
    const hookBig = await send(hook.POST, "/api/agent/v1/hooks/claude-code", endless().stream, {
      bearer: token,
      params: { agent: "claude-code" },
    });
    expect(hookBig.status).toBe(413);
  });

  it("the card list carries a bounded preview of a 900 KB input; the card's own endpoint has all of it", async () => {
    const content = "y".repeat(900 * 1024);
    const res = await send(
      agentCards.POST,
      "/api/agent/v1/cards",
      JSON.stringify({
        agent: "claude-code",
        sessionId: "huge",
        tool: "Write",
        input: { file_path: path.join(root, "project", "huge.txt"), content },
      }),
      { bearer: token },
    );
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const get = (handler: Handler, url: string, params = {}) =>
      handler(
        new NextRequest(new URL(url, "http://localhost:3000"), { headers: { authorization: `Bearer ${LOCAL}` } }),
        {
          params: Promise.resolve(params),
        },
      );
    // The list carries a folded preview (its size is what keeps the list fast; no clock in the test).
    const list = (await (await get(cardsList.GET, "/api/v1/cards?status=pending")).json()) as {
      cards: { id: string; input: { content: string }; inputOmitted?: number }[];
    };
    const preview = list.cards.find((c) => c.id === id)!;
    expect(JSON.stringify(preview).length).toBeLessThan(16 * 1024);
    expect(preview.inputOmitted).toBe(content.length - 2_000);
    expect(preview.input.content).toMatch(/^y{1334}… \(919600 more characters\)y{666}$/);
    const one = (await (await get(cardOne.GET, `/api/v1/cards/${id}`, { id })).json()) as {
      card: { input: { content: string }; inputOmitted?: number };
    };
    expect(one.card.input.content).toBe(content);
    expect(one.card.inputOmitted).toBeUndefined();
  });

  it("an agent route reads no body before the token is checked", async () => {
    const { stream, pulled } = endless();
    const res = await send(agentCards.POST, "/api/agent/v1/cards", stream);
    expect(res.status).toBe(401);
    expect(pulled.bytes).toBeLessThanOrEqual(32 * 1024);
  });

  it("the ntfy action route (reads its body itself) caps at 64 KiB", async () => {
    const res = await send(notifyAction.POST, "/api/v1/notify/actions/x", endless().stream, {
      params: { token: `cna_${"A".repeat(43)}` },
    });
    expect(res.status).toBe(413);
  });
});

describe("per agent token limits", () => {
  const ask = (n: number) => ({
    agent: "claude-code" as const,
    sessionId: `limit-${n}`,
    tool: "Bash",
    input: { command: `npm run task-${n}` },
  });

  it("admissions beyond the token bucket get 429 with Retry-After", async () => {
    const { token: limited } = await createAgentToken({
      db: opened.db,
      actor: { kind: "local", name: "local-cli" },
      input: { workspaceId: "w1" },
    });
    const limits = { maxPending: 1000, perMinute: 1, burst: 3 };
    const actor = (await actorFromAgentToken(opened.db, limited))!;
    for (let n = 0; n < 3; n++) await admitCard({ db: opened.db, actor, workspaceId: "w1", input: ask(n), limits });
    const refused = admitCard({ db: opened.db, actor, workspaceId: "w1", input: ask(3), limits });
    await expect(refused).rejects.toBeInstanceOf(TooManyRequestsError);
    const error = (await refused.catch((e: unknown) => e)) as TooManyRequestsError;
    expect(error.retryAfterSeconds).toBeGreaterThan(50);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(60);

    // Default limits through the HTTP route: a burst of 30 (plus what refills meanwhile), then 429.
    const { token: flood } = await createAgentToken({
      db: opened.db,
      actor: { kind: "local", name: "local-cli" },
      input: { workspaceId: "w1" },
    });
    let last: Response | undefined;
    let admitted = 0;
    for (let n = 0; n < 200; n++) {
      last = await send(agentCards.POST, "/api/agent/v1/cards", JSON.stringify({ ...ask(n), sessionId: "flood" }), {
        bearer: flood,
      });
      if (last.status === 429) break;
      admitted++;
    }
    expect(admitted).toBeGreaterThanOrEqual(30);
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await last!.json()).toMatchObject({ error: expect.stringMatching(/asks too often/) });
  }, 60_000);

  it("a token holding the maximum of pending cards gets 429 until one settles", async () => {
    const { token: busy } = await createAgentToken({
      db: opened.db,
      actor: { kind: "local", name: "local-cli" },
      input: { workspaceId: "w1" },
    });
    const actor = (await actorFromAgentToken(opened.db, busy))!;
    const limits = { maxPending: 2, perMinute: 6000, burst: 100 };
    for (let n = 0; n < 2; n++) await admitCard({ db: opened.db, actor, workspaceId: "w1", input: ask(n), limits });
    const refused = admitCard({ db: opened.db, actor, workspaceId: "w1", input: ask(2), limits });
    await expect(refused).rejects.toThrow(/already has 2 pending cards/);
    await expect(refused).rejects.toMatchObject({ status: 429 });
    // Another token of the same workspace is not affected.
    const other = (await actorFromAgentToken(
      opened.db,
      (
        await createAgentToken({
          db: opened.db,
          actor: { kind: "local", name: "local-cli" },
          input: { workspaceId: "w1" },
        })
      ).token,
    ))!;
    expect((await admitCard({ db: opened.db, actor: other, workspaceId: "w1", input: ask(9), limits })).status).toBe(
      "pending",
    );
  }, 60_000);
});
