import { mkdirSync, readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { openDb, setServerDb, type OpenedDb } from "@/db/client";
import { workspaces } from "@/db/schema";
import { LOCAL_CREDENTIAL_ENV } from "@/lib/auth/local-credential";
import { hashToken } from "@/lib/auth/tokens";
import { personHeaders } from "@/test/support/auth";
import { FIXTURES, makeSandbox, type Sandbox } from "@/test/support/stores";
import * as addRoute from "./add/route";
import * as checkRoute from "./narrow/check/route";
import * as narrowRoute from "./narrow/route";
import * as revokeRoute from "./revoke/route";
import * as listRoute from "./route";
import * as suggestionsRoute from "./suggestions/route";
import * as sessionRoute from "../session-entries/route";

const LOCAL = "cpc_entries-api-credential";
let opened: OpenedDb;
let sb: Sandbox;
let person: Record<string, string>;
const saved = { home: process.env.HOME, managed: process.env.COCKPIT_MANAGED_SETTINGS };

beforeAll(async () => {
  sb = makeSandbox("entries-api-");
  process.env.HOME = sb.home;
  process.env.COCKPIT_MANAGED_SETTINGS = "";
  process.env[LOCAL_CREDENTIAL_ENV] = hashToken(LOCAL);
  opened = await openDb({ kind: "embedded" });
  setServerDb(opened);
  await opened.db.insert(workspaces).values({ id: "w", path: sb.workspace, name: "project" });
  person = await personHeaders(opened.db);
  sb.write(".commandcode/settings.json", FIXTURES.commandcodeJsonc);
  sb.write(".claude/settings.json", '{ "permissions": { "allow": ["Bash(ls)",] } }');
  // A symlinked folder in the mevedel store path: listed, never written.
  mkdirSync(path.join(sb.root, "elsewhere"));
  sb.write(path.join(sb.root, "elsewhere", "permissions.el"), '(:rules (("Bash" :pattern "ls *" :action allow)))\n');
  symlinkSync(path.join(sb.root, "elsewhere"), sb.abs(".mevedel"));
});
afterAll(async () => {
  process.env.HOME = saved.home;
  if (saved.managed === undefined) delete process.env.COCKPIT_MANAGED_SETTINGS;
  else process.env.COCKPIT_MANAGED_SETTINGS = saved.managed;
  await opened.close();
  sb.cleanup();
});

type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
/** `PERSON` sends a signed-in session (cookie + Origin): allow rules are written only by a person. */
const PERSON = "person";
async function call(handler: Handler, method: string, url: string, body?: unknown, bearer: string | null = LOCAL) {
  const headers: Record<string, string> = bearer === PERSON ? { ...person } : {};
  if (bearer && bearer !== PERSON) headers.authorization = `Bearer ${bearer}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await handler(
    new NextRequest(new URL(url, "http://localhost:3000"), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    { params: Promise.resolve({}) },
  );
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}
const list = async (q = "") => (await call(listRoute.GET, "GET", `/api/v1/entries?workspace=w${q}`)).body;
const find = async (rule: string) =>
  ((await list()).entries as { id: string; rule: string; store: { version: string } }[]).find((e) => e.rule === rule)!;

describe("/api/v1/entries", () => {
  it("needs a signed-in caller and lists every store with server-side filters", async () => {
    expect((await call(listRoute.GET, "GET", "/api/v1/entries?workspace=w", undefined, null)).status).toBe(401);
    const all = await list();
    expect(all.workspace).toMatchObject({ id: "w", path: sb.workspace });
    expect(all.stores.find((s: { path: string }) => s.path === sb.abs(".claude/settings.json"))).toMatchObject({
      valid: false,
    });
    expect(all.stores.find((s: { path: string }) => s.path === sb.abs(".mevedel/permissions.el"))).toMatchObject({
      valid: true,
      writable: false,
    });
    const deny = await list("&action=deny");
    expect(deny.entries.map((e: { rule: string }) => e.rule)).toEqual(["Shell(rm -rf *)"]);
    expect((await call(listRoute.GET, "GET", "/api/v1/entries?workspace=w&scope=nope")).status).toBe(400);
  });

  it("maps refusals: 409 changed on disk, 409 symlink, 422 not narrower with the engine's reason", async () => {
    const git = await find("Shell(git:*)");
    const stale = await call(revokeRoute.POST, "POST", "/api/v1/entries/revoke", {
      workspace: "w",
      id: git.id,
      version: "0".repeat(64),
    });
    expect(stale).toMatchObject({
      status: 409,
      body: { error: "changed on disk — refresh", details: { kind: "changed-on-disk" } },
    });
    const ls = await find('("Bash" :pattern "ls *" :action allow)');
    const symlink = await call(revokeRoute.POST, "POST", "/api/v1/entries/revoke", {
      workspace: "w",
      id: ls.id,
      version: ls.store.version,
    });
    expect(symlink).toMatchObject({ status: 409, body: { details: { kind: "symlink" } } });
    expect(readFileSync(path.join(sb.root, "elsewhere", "permissions.el"), "utf8")).toContain("ls *");

    const check = await call(checkRoute.POST, "POST", "/api/v1/entries/narrow/check", {
      workspace: "w",
      id: git.id,
      to: "Shell(npm:*)",
    });
    expect(check.body).toMatchObject({ proved: false, reason: expect.stringMatching(/^cannot prove narrower: /) });
    const refused = await call(
      narrowRoute.POST,
      "POST",
      "/api/v1/entries/narrow",
      { workspace: "w", id: git.id, version: git.store.version, to: "Shell(npm:*)" },
      PERSON,
    );
    expect(refused).toMatchObject({ status: 422, body: { error: expect.stringMatching(/^cannot prove narrower: /) } });
    const suggestions = await call(suggestionsRoute.GET, "GET", `/api/v1/entries/suggestions?workspace=w&id=${git.id}`);
    expect(suggestions.body.suggestions).toContain("Shell(git status:*)");
    const narrowBody = { workspace: "w", id: git.id, version: git.store.version, to: "Shell(git status:*)" };
    const byCli = await call(narrowRoute.POST, "POST", "/api/v1/entries/narrow", narrowBody);
    expect(byCli).toMatchObject({ status: 403, body: { error: expect.stringMatching(/needs a person/) } });
    const narrowed = await call(narrowRoute.POST, "POST", "/api/v1/entries/narrow", narrowBody, PERSON);
    expect(narrowed.status).toBe(200);
    expect(sb.read(".commandcode/settings.json")).toContain('"Shell(git status:*)", // everything git');
  });

  it("adds (201, 400 on a bad rule, 422 on an invalid store) and adds/revokes session entries", async () => {
    const denyBody = { workspace: "w", agent: "claude-code", scope: "global", action: "deny", rule: "Bash(curl:*)" };
    // Adding is a door (route({ person: true })): even a deny rule goes through a person's session; the CLI
    // writes its own files with `cockpit add`.
    expect((await call(addRoute.POST, "POST", "/api/v1/entries/add", denyBody)).status).toBe(403);
    const added = await call(addRoute.POST, "POST", "/api/v1/entries/add", denyBody, PERSON);
    expect(added).toMatchObject({
      status: 201,
      body: { result: { scopeWarning: expect.stringMatching(/every project/) } },
    });
    expect((await call(addRoute.POST, "POST", "/api/v1/entries/add", denyBody, PERSON)).status).toBe(200);
    expect(
      (
        await call(
          addRoute.POST,
          "POST",
          "/api/v1/entries/add",
          {
            workspace: "w",
            agent: "commandcode",
            scope: "workspace",
            action: "allow",
            rule: "Shell(",
          },
          PERSON,
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await call(
          addRoute.POST,
          "POST",
          "/api/v1/entries/add",
          {
            workspace: "w",
            agent: "claude-code",
            scope: "workspace",
            file: "settings.json",
            action: "allow",
            rule: "Read",
          },
          PERSON,
        )
      ).body,
    ).toMatchObject({ details: { kind: "invalid-store" } });

    const sessionBody = {
      workspace: "w",
      agentSessionId: "a1",
      agent: "claude-code",
      action: "allow",
      rule: "Bash(npm test)",
    };
    const sessionByCli = await call(sessionRoute.POST, "POST", "/api/v1/session-entries", sessionBody);
    expect(sessionByCli.status).toBe(403);
    const session = await call(sessionRoute.POST, "POST", "/api/v1/session-entries", sessionBody, PERSON);
    expect(session.status).toBe(201);
    const id = session.body.entry.entryId as string;
    expect((await list("&scope=session")).entries.map((e: { id: string }) => e.id)).toEqual([id]);
    expect(
      (await call(revokeRoute.POST, "POST", "/api/v1/entries/revoke", { workspace: "w", id, version: "database" }))
        .status,
    ).toBe(200);
    expect((await list("&scope=session")).entries).toEqual([]);
  });
});
