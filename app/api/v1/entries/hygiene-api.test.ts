import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { eq } from "drizzle-orm";
import { openDb, setServerDb, type OpenedDb } from "@/db/client";
import { auditEvents, workspaces } from "@/db/schema";
import { LOCAL_CREDENTIAL_ENV } from "@/lib/auth/local-credential";
import { hashToken } from "@/lib/auth/tokens";
import { makeSandbox, type Sandbox } from "@/test/support/stores";
import * as cleanUpRoute from "./clean-up/route";
import * as hygieneRoute from "./hygiene/route";

const LOCAL = "cpc_hygiene-api-credential";
let opened: OpenedDb;
let sb: Sandbox;
const saved = { home: process.env.HOME, managed: process.env.COCKPIT_MANAGED_SETTINGS };
const SETTINGS =
  '{\n  "permissions": {\n    "allow": [\n      "Bash(git:*)",\n      "Bash(git status:*)",\n      "Bash(python:*)"\n    ]\n  }\n}\n';

beforeAll(async () => {
  sb = makeSandbox("hygiene-api-");
  process.env.HOME = sb.home;
  process.env.COCKPIT_MANAGED_SETTINGS = "";
  process.env[LOCAL_CREDENTIAL_ENV] = hashToken(LOCAL);
  opened = await openDb({ kind: "embedded" });
  setServerDb(opened);
  await opened.db.insert(workspaces).values({ id: "w", path: sb.workspace, name: "project" });
  sb.write(".claude/settings.json", SETTINGS);
});
afterAll(async () => {
  process.env.HOME = saved.home;
  if (saved.managed === undefined) delete process.env.COCKPIT_MANAGED_SETTINGS;
  else process.env.COCKPIT_MANAGED_SETTINGS = saved.managed;
  await opened.close();
  sb.cleanup();
});

type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
async function call(handler: Handler, method: string, url: string, body?: unknown, bearer: string | null = LOCAL) {
  const headers: Record<string, string> = {};
  if (bearer) headers.authorization = `Bearer ${bearer}`;
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

describe("hygiene API", () => {
  it("GET /api/v1/entries/hygiene: summary and findings; needs a caller", async () => {
    expect((await call(hygieneRoute.GET, "GET", "/api/v1/entries/hygiene?workspace=w", undefined, null)).status).toBe(
      401,
    );
    const r = await call(hygieneRoute.GET, "GET", "/api/v1/entries/hygiene?workspace=w");
    expect(r.status).toBe(200);
    expect(r.body.summary.text).toBe("3 rules: 1 over-broad, 1 covered");
    expect(r.body.findings.map((f: { kind: string }) => f.kind).sort()).toEqual(["covered", "over-broad"]);
    expect(r.body.notes[0]).toMatch(/no usage data yet/i);
  });

  it("POST /api/v1/entries/clean-up: preview with a diff and proof, then a confirmed atomic write", async () => {
    const preview = await call(cleanUpRoute.POST, "POST", "/api/v1/entries/clean-up", { workspace: "w" });
    expect(preview.status).toBe(200);
    expect(preview.body.written).toBe(false);
    const [file] = preview.body.files;
    expect(file.diff).toContain('-      "Bash(git status:*)",');
    expect(file.removed[0].proof).toMatch(/^0 decisions change/);
    expect(readFileSync(file.store, "utf8")).toBe(SETTINGS); // nothing written yet

    const stale = await call(cleanUpRoute.POST, "POST", "/api/v1/entries/clean-up", {
      workspace: "w",
      confirm: { [file.store]: "0".repeat(64) },
    });
    expect(stale.status).toBe(409);

    const done = await call(cleanUpRoute.POST, "POST", "/api/v1/entries/clean-up", {
      workspace: "w",
      confirm: { [file.store]: file.version },
    });
    expect(done.status).toBe(200);
    expect(done.body.written).toBe(true);
    expect(readFileSync(file.store, "utf8")).toBe(
      '{\n  "permissions": {\n    "allow": [\n      "Bash(git:*)",\n      "Bash(python:*)"\n    ]\n  }\n}\n',
    );
    const rows = await opened.db.select().from(auditEvents).where(eq(auditEvents.target, file.removed[0].id));
    expect(rows.map((r) => r.action)).toEqual(["entry.revoked"]);
  });
});
