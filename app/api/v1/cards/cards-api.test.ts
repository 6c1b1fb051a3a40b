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
import { personHeaders } from "@/test/support/auth";
import * as agentCards from "@/app/api/agent/v1/cards/route";
import * as agentCard from "@/app/api/agent/v1/cards/[id]/route";
import * as hook from "@/app/api/agent/v1/hooks/[agent]/route";
import * as userMessageRoute from "@/app/api/agent/v1/sessions/[sessionId]/user-message/route";
import * as cardsList from "@/app/api/v1/cards/route";
import * as cardOne from "@/app/api/v1/cards/[id]/route";
import * as answerRoute from "@/app/api/v1/cards/[id]/answer/route";
import * as displayedRoute from "@/app/api/v1/cards/[id]/displayed/route";
import * as events from "@/app/api/v1/events/route";
import * as absence from "@/app/api/v1/settings/absence/route";

const LOCAL = "cpc_test-local-credential";
let opened: OpenedDb;
let root: string;
let token: string;
let otherToken: string;
let person: Record<string, string>;
const originalHome = process.env.HOME;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), "cards-api-"));
  mkdirSync(path.join(root, "project"));
  mkdirSync(path.join(root, "other"));
  mkdirSync(path.join(root, "home"));
  process.env.HOME = path.join(root, "home");
  process.env[LOCAL_CREDENTIAL_ENV] = hashToken(LOCAL);
  opened = await openDb({ kind: "embedded" });
  setServerDb(opened);
  await opened.db.insert(workspaces).values([
    { id: "w1", path: path.join(root, "project"), name: "project" },
    { id: "w2", path: path.join(root, "other"), name: "other" },
  ]);
  token = (
    await createAgentToken({
      db: opened.db,
      actor: { kind: "local", name: "local-cli" } as const,
      input: { workspaceId: "w1" },
    })
  ).token;
  otherToken = (
    await createAgentToken({
      db: opened.db,
      actor: { kind: "local", name: "local-cli" } as const,
      input: { workspaceId: "w2" },
    })
  ).token;
  person = await personHeaders(opened.db);
});
afterAll(async () => {
  process.env.HOME = originalHome;
  await opened.close();
  rmSync(root, { recursive: true, force: true });
});

type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
function call(
  handler: Handler,
  method: string,
  url: string,
  {
    bearer,
    body,
    params = {},
    signal,
    asPerson,
  }: {
    bearer?: string;
    body?: unknown;
    params?: Record<string, string>;
    signal?: AbortSignal;
    asPerson?: boolean;
  } = {},
) {
  const headers: Record<string, string> = asPerson ? { ...person } : {};
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const req = new NextRequest(new URL(url, "http://localhost:3000"), {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  return handler(req, { params: Promise.resolve(params) });
}
const admitBody = (command: string, sessionId = "s1") => ({
  agent: "claude-code",
  sessionId,
  tool: "Bash",
  input: { command },
});
const permissionRequest = (command: string, session = "hook-session") => ({
  session_id: session,
  transcript_path: "/tmp/t.jsonl",
  cwd: path.join(root, "project"),
  permission_mode: "default",
  hook_event_name: "PermissionRequest",
  tool_name: "Bash",
  tool_input: { command, description: "Remove node_modules directory" },
  permission_suggestions: [
    {
      type: "addRules",
      rules: [{ toolName: "Bash", ruleContent: command }],
      behavior: "allow",
      destination: "localSettings",
    },
  ],
});

describe("agent API and collaborator API", () => {
  it("admits with an agent token (201), refuses without one (401), and hides cards from other workspaces' tokens", async () => {
    expect(
      (await call(agentCards.POST, "POST", "/api/agent/v1/cards", { body: admitBody("npm install") })).status,
    ).toBe(401);
    expect(
      (await call(agentCards.POST, "POST", "/api/agent/v1/cards", { bearer: LOCAL, body: admitBody("npm install") }))
        .status,
    ).toBe(401);
    const res = await call(agentCards.POST, "POST", "/api/agent/v1/cards", {
      bearer: token,
      body: admitBody("npm install"),
    });
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: string; status: string; hash: string; url: string };
    expect(created).toMatchObject({ status: "pending", url: `http://localhost:3000/cards/${created.id}` });
    const foreign = await call(agentCard.GET, "GET", `/api/agent/v1/cards/${created.id}`, {
      bearer: otherToken,
      params: { id: created.id },
    });
    expect(foreign.status).toBe(404);
    const coalesced = await call(agentCards.POST, "POST", "/api/agent/v1/cards", {
      bearer: token,
      // Only rules and denying modes settle at once: a person was already asked (docs/security.md).
      body: { ...admitBody("npm publish"), mode: "dontAsk" },
    });
    expect(coalesced.status).toBe(200);
    expect(await coalesced.json()).toMatchObject({ status: "coalesced", decision: { decision: "deny" } });
    const bad = await call(agentCards.POST, "POST", "/api/agent/v1/cards", {
      bearer: token,
      body: { agent: "claude-code", tool: "Bash" },
    });
    expect(bad.status).toBe(400);
  });

  it("lists, shows, answers exactly once (409 with the card for the loser), and releases the long-poll", async () => {
    const created = (await (
      await call(agentCards.POST, "POST", "/api/agent/v1/cards", {
        bearer: token,
        body: admitBody("npm run deploy", "s2"),
      })
    ).json()) as { id: string; hash: string };
    const list = (await (
      await call(cardsList.GET, "GET", "/api/v1/cards?status=pending", { bearer: LOCAL })
    ).json()) as { cards: { id: string; workspace: { name: string } }[] };
    expect(list.cards.find((c) => c.id === created.id)?.workspace.name).toBe("project");
    const one = (await (
      await call(cardOne.GET, "GET", `/api/v1/cards/${created.id}`, { bearer: LOCAL, params: { id: created.id } })
    ).json()) as { card: { hash: string } };
    expect(one.card.hash).toBe(created.hash);
    expect(
      await (
        await call(displayedRoute.POST, "POST", `/api/v1/cards/${created.id}/displayed`, {
          bearer: LOCAL,
          params: { id: created.id },
        })
      ).json(),
    ).toEqual({ recorded: true });

    const poll = call(agentCard.GET, "GET", `/api/agent/v1/cards/${created.id}?wait=10`, {
      bearer: token,
      params: { id: created.id },
    });
    const mismatch = await call(answerRoute.POST, "POST", `/api/v1/cards/${created.id}/answer`, {
      asPerson: true,
      params: { id: created.id },
      body: { outcome: "allow", remember: "once", hash: "f".repeat(64) },
    });
    expect(mismatch.status).toBe(409);
    expect(await mismatch.json()).toMatchObject({
      error: "the card changed; reload",
      card: { id: created.id, status: "pending" },
    });
    const ok = await call(answerRoute.POST, "POST", `/api/v1/cards/${created.id}/answer`, {
      asPerson: true,
      params: { id: created.id },
      body: { outcome: "allow", remember: "once", hash: created.hash },
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ card: { status: "allowed", settlement: { by: "owner", via: "web" } } });
    const late = await call(answerRoute.POST, "POST", `/api/v1/cards/${created.id}/answer`, {
      asPerson: true,
      params: { id: created.id },
      body: { outcome: "deny", remember: "once", hash: created.hash },
    });
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({
      error: expect.stringMatching(/^already settled by owner \(owner\) at /),
      card: { status: "allowed" },
    });
    expect(await (await poll).json()).toMatchObject({
      id: created.id,
      status: "allowed",
      settlement: { outcome: "allow" },
    });
  });

  it("refuses a known tool without its field and a tool name outside the grammar (400), on both agent routes", async () => {
    const sneaky = await call(agentCards.POST, "POST", "/api/agent/v1/cards", {
      bearer: token,
      body: { agent: "claude-code", sessionId: "s-bad", tool: "Bash", input: { cmd: "rm -rf ~" } },
    });
    expect(sneaky.status).toBe(400);
    expect((await sneaky.json()).error).toMatch(/input of Bash: command/);
    const badName = await call(agentCards.POST, "POST", "/api/agent/v1/cards", {
      bearer: token,
      body: { agent: "claude-code", sessionId: "s-bad", tool: "Bash(*)", input: { command: "ls" } },
    });
    expect(badName.status).toBe(400);
    const hooked = await call(hook.POST, "POST", "/api/agent/v1/hooks/claude-code?wait=1", {
      params: { agent: "claude-code" },
      bearer: token,
      body: { ...permissionRequest("x"), tool_input: { cmd: "rm -rf ~" } },
    });
    expect(hooked.status).toBe(400);
  });

  it("refuses an agent token on the collaborator API with a reason", async () => {
    const res = await call(cardsList.GET, "GET", "/api/v1/cards", { bearer: token });
    expect(res.status).toBe(403);
    expect((await res.json()).error).toMatch(/agent API/);
  });

  it("only a person's session answers: the CLI credential and agent tokens get 403; a client field sets no channel", async () => {
    const created = (await (
      await call(agentCards.POST, "POST", "/api/agent/v1/cards", { bearer: token, body: admitBody("npm run who") })
    ).json()) as { id: string; hash: string };
    const body = { outcome: "allow", remember: "once", hash: created.hash, client: "ntfy" };
    for (const bearer of [LOCAL, token]) {
      const res = await call(answerRoute.POST, "POST", `/api/v1/cards/${created.id}/answer`, {
        bearer,
        params: { id: created.id },
        body,
      });
      expect(res.status).toBe(403);
      expect((await res.json()).error).toMatch(/person/);
    }
    const ok = await call(answerRoute.POST, "POST", `/api/v1/cards/${created.id}/answer`, {
      asPerson: true,
      params: { id: created.id },
      body,
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ card: { status: "allowed", settlement: { by: "owner", via: "web" } } });
  });

  it("DELETE aborts a card", async () => {
    const created = (await (
      await call(agentCards.POST, "POST", "/api/agent/v1/cards", {
        bearer: token,
        body: admitBody("npm publish", "s3"),
      })
    ).json()) as { id: string };
    expect(
      await (
        await call(agentCard.DELETE, "DELETE", `/api/agent/v1/cards/${created.id}`, {
          bearer: token,
          params: { id: created.id },
        })
      ).json(),
    ).toEqual({ id: created.id, aborted: true });
    expect(
      await (
        await call(agentCard.GET, "GET", `/api/agent/v1/cards/${created.id}`, {
          bearer: token,
          params: { id: created.id },
        })
      ).json(),
    ).toMatchObject({ status: "aborted" });
  });

  it("Claude Code HTTP hook: holds the request and answers allow / deny-with-feedback JSON; a closed connection aborts", async () => {
    const pendingIds = async () =>
      (
        (await (await call(cardsList.GET, "GET", "/api/v1/cards", { bearer: LOCAL })).json()) as {
          cards: { id: string; hash: string; input: { command: string } }[];
        }
      ).cards;
    const answerHead = async (command: string, body: Record<string, unknown>) => {
      for (let i = 0; i < 100; i++) {
        const c = (await pendingIds()).find((x) => x.input.command === command);
        if (c)
          return call(answerRoute.POST, "POST", `/api/v1/cards/${c.id}/answer`, {
            asPerson: true,
            params: { id: c.id },
            body: { ...body, hash: c.hash },
          });
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error("card never appeared");
    };
    const allowed = call(hook.POST, "POST", "/api/agent/v1/hooks/claude-code?wait=20", {
      params: { agent: "claude-code" },
      bearer: token,
      body: permissionRequest("rm -rf node_modules"),
    });
    await answerHead("rm -rf node_modules", { outcome: "allow", remember: "once" });
    expect(await (await allowed).json()).toEqual({
      hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } },
    });

    const denied = call(hook.POST, "POST", "/api/agent/v1/hooks/claude-code?wait=20", {
      params: { agent: "claude-code" },
      bearer: token,
      body: permissionRequest("rm -rf build"),
    });
    await answerHead("rm -rf build", { outcome: "deny", remember: "once", message: "use make clean" });
    expect(await (await denied).json()).toEqual({
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: { behavior: "deny", message: "use make clean" },
      },
    });

    const controller = new AbortController();
    const gone = call(hook.POST, "POST", "/api/agent/v1/hooks/claude-code?wait=20", {
      params: { agent: "claude-code" },
      bearer: token,
      body: permissionRequest("rm -rf cache"),
      signal: controller.signal,
    });
    for (let i = 0; i < 100 && !(await pendingIds()).some((x) => x.input.command === "rm -rf cache"); i++)
      await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    expect(await (await gone).json()).toEqual({});
    const settled = (
      (await (await call(cardsList.GET, "GET", "/api/v1/cards?status=settled", { bearer: LOCAL })).json()) as {
        cards: { status: string; input: { command: string } }[];
      }
    ).cards;
    expect(settled.find((c) => c.input.command === "rm -rf cache")?.status).toBe("aborted");

    const timeout = await call(hook.POST, "POST", "/api/agent/v1/hooks/claude-code?wait=1", {
      params: { agent: "claude-code" },
      bearer: token,
      body: permissionRequest("rm -rf tmp"),
    });
    expect(await timeout.json()).toEqual({});
    expect(
      (
        await call(hook.POST, "POST", "/api/agent/v1/hooks/claude-code", {
          params: { agent: "claude-code" },
          bearer: token,
          body: { ...permissionRequest("ls"), hook_event_name: "PostToolUse" },
        })
      ).status,
    ).toBe(200);
  });

  it("absence setting, hold and the user-message endpoint", async () => {
    expect(await (await call(absence.GET, "GET", "/api/v1/settings/absence", { bearer: LOCAL })).json()).toEqual({
      timeoutSeconds: null,
    });
    expect(
      (await call(absence.PUT, "PUT", "/api/v1/settings/absence", { bearer: LOCAL, body: { timeoutSeconds: -1 } }))
        .status,
    ).toBe(400);
    expect(
      await (
        await call(absence.PUT, "PUT", "/api/v1/settings/absence", { bearer: LOCAL, body: { timeoutSeconds: 3600 } })
      ).json(),
    ).toEqual({ timeoutSeconds: 3600 });
    const res = await call(userMessageRoute.POST, "POST", "/api/agent/v1/sessions/s9/user-message", {
      bearer: token,
      params: { sessionId: "s9" },
    });
    expect(await res.json()).toEqual({ holdEnded: false });
    await call(absence.PUT, "PUT", "/api/v1/settings/absence", { bearer: LOCAL, body: { timeoutSeconds: null } });
  });

  it("streams card changes as server-sent events and stops when the client leaves", async () => {
    const controller = new AbortController();
    const res = await call(events.GET, "GET", "/api/v1/events", { bearer: LOCAL, signal: controller.signal });
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value);
    expect(text).toContain("retry: 2000");
    const created = (await (
      await call(agentCards.POST, "POST", "/api/agent/v1/cards", {
        bearer: token,
        body: admitBody("npm run sse", "s4"),
      })
    ).json()) as { id: string };
    while (!text.includes(created.id)) text += decoder.decode((await reader.read()).value);
    expect(text).toContain(
      `event: card\ndata: {"type":"enqueued","cardId":"${created.id}","workspaceId":"w1","status":"pending"}\n\n`,
    );
    controller.abort();
    expect((await reader.read()).done).toBe(true);
  });
});
