import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, setServerDb, type OpenedDb } from "@/db/client";
import { recordAudit, type AuditEvent } from "@/lib/audit";
import { configureAudit } from "@/lib/audit/config";
import { csvField, listAuditEvents, AuditPageQuery } from "@/lib/audit/query";
import { LOCAL_CREDENTIAL_ENV } from "@/lib/auth/local-credential";
import { hashToken } from "@/lib/auth/tokens";
import type { Actor } from "@/lib/auth/actor";
import { personActor, roleEverywhere } from "@/test/support/auth";
import * as exportRoute from "./export/route";
import * as histogramRoute from "./histogram/route";
import * as listRoute from "./route";

const LOCAL = "cpc_audit-api-test-credential";
let opened: OpenedDb;
let keyDir: string;

const agentEvent = (i: number): AuditEvent => ({
  type: "card.resolved",
  actor: { type: "user", label: i % 2 ? "alice" : "bob" },
  workspaceId: i % 3 === 0 ? "w2" : "w1",
  outcome: i % 4 === 0 ? "deny" : "allow",
  decisionSource: i % 4 === 0 ? "user_reject" : "user_temporary",
  agent: "claude-code",
  agentSessionId: `s${i % 5}`,
  tool: i % 2 ? "Bash" : "Edit",
  rule: i % 2 ? "Bash(npm test:*)" : null,
  input: { command: i === 7 ? 'rm -rf build, "now"\nplease' : `echo ${i}` },
  detail: { n: i },
});

beforeAll(async () => {
  keyDir = fs.mkdtempSync(path.join(os.tmpdir(), "audit-api-"));
  configureAudit({ keyDir });
  process.env[LOCAL_CREDENTIAL_ENV] = hashToken(LOCAL);
  opened = await openDb({ kind: "embedded" });
  setServerDb(opened);
  await opened.db.transaction(async (tx) => {
    for (let i = 1; i <= 40; i++) await recordAudit(tx, agentEvent(i));
    await recordAudit(tx, { type: "auth.login", actor: { type: "user", label: "alice" } });
  });
});
afterAll(async () => {
  configureAudit({ keyDir: undefined });
  await opened.close();
  fs.rmSync(keyDir, { recursive: true, force: true });
});

type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
async function get(handler: Handler, url: string, bearer: string | null = LOCAL) {
  const headers: Record<string, string> = bearer ? { authorization: `Bearer ${bearer}` } : {};
  return handler(new NextRequest(new URL(url, "http://localhost:3000"), { headers }), {
    params: Promise.resolve({}),
  });
}
async function page(q: string) {
  const res = await get(listRoute.GET, `/api/v1/audit?${q}`);
  expect(res.status).toBe(200);
  return (await res.json()) as { events: { seq: number; type: string; [k: string]: unknown }[]; next: string | null };
}

describe("GET /api/v1/audit", () => {
  it("needs a signed-in caller and rejects bad filters with 400", async () => {
    expect((await get(listRoute.GET, "/api/v1/audit", null)).status).toBe(401);
    expect((await get(listRoute.GET, "/api/v1/audit?cursor=abc")).status).toBe(400);
    expect((await get(listRoute.GET, "/api/v1/audit?from=yesterday")).status).toBe(400);
    expect((await get(listRoute.GET, "/api/v1/audit?source=nope")).status).toBe(400);
    expect((await get(listRoute.GET, "/api/v1/audit?type=DROP TABLE")).status).toBe(400);
  });

  it("pages newest first by seq with a cursor, and every filter narrows", async () => {
    const first = await page("limit=15");
    expect(first.events.map((e) => e.seq)).toEqual(Array.from({ length: 15 }, (_, i) => 41 - i));
    expect(first.events[0]).toMatchObject({ seq: 41, type: "auth.login", at: expect.any(String) });
    const second = await page(`limit=15&cursor=${first.next}`);
    expect(second.events[0]!.seq).toBe(26);
    const third = await page(`limit=15&cursor=${second.next}`);
    expect(third.events.map((e) => e.seq)).toEqual(Array.from({ length: 11 }, (_, i) => 11 - i));
    expect(third.next).toBeNull();

    const all = (q: string) => page(`limit=200&${q}`).then((p) => p.events);
    expect((await all("workspace=w2")).every((e) => e.workspace === "w2")).toBe(true);
    expect(await all("workspace=w2")).toHaveLength(13);
    expect(await all("outcome=deny")).toHaveLength(10);
    expect(await all("source=user_reject&outcome=deny")).toHaveLength(10);
    expect(await all("tool=Bash")).toHaveLength(20);
    expect(await all("agentSession=s0")).toHaveLength(8);
    expect(await all("agent=claude-code")).toHaveLength(40);
    expect(await all("actor=alice")).toHaveLength(21);
    expect(await all("type=card.resolved")).toHaveLength(40);
    expect(await all("type=auth.*")).toHaveLength(1);
    // Free text: case-insensitive, anywhere (input included); % and _ match themselves.
    expect((await all("q=RM%20-RF%20BUILD")).map((e) => e.seq)).toEqual([7]);
    expect(await all("q=%25")).toHaveLength(0);
    expect(await all("q=npm%20test")).toHaveLength(20);
    expect(await all("from=2000-01-01T00:00:00Z&to=2001-01-01T00:00:00Z")).toHaveLength(0);
    expect(await all(`from=${encodeURIComponent(new Date(Date.now() - 60_000).toISOString())}`)).toHaveLength(41);
    // Empty parameters are no filter (the page's form sends them).
    expect(await all("workspace=&tool=&q=")).toHaveLength(41);
  });

  it("shows a viewer only workspace events; workspace-less events are for admins and the owner", async () => {
    const viewer: Actor = roleEverywhere("viewer");
    const admin: Actor = roleEverywhere("admin");
    const q = AuditPageQuery.parse({ limit: "200" });
    expect((await listAuditEvents(opened.db, viewer, q)).events.some((e) => e.workspace === null)).toBe(false);
    // Per-workspace roles: a viewer of w1 alone reads w1's events and nothing else.
    const w1Viewer: Actor = personActor({ grants: [{ workspace: "w1", role: "viewer" }] });
    const seen = (await listAuditEvents(opened.db, w1Viewer, q)).events;
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((e) => e.workspace === "w1")).toBe(true);
    expect((await listAuditEvents(opened.db, admin, q)).events.some((e) => e.type === "auth.login")).toBe(true);
    const agent: Actor = { kind: "agent", tokenId: "t", workspaceId: "w1", name: "ci" };
    expect((await listAuditEvents(opened.db, agent, q)).events.every((e) => e.workspace === "w1")).toBe(true);
    await expect(listAuditEvents(opened.db, agent, AuditPageQuery.parse({ workspace: "w2" }))).rejects.toThrow(
      /cannot read/,
    );
  });
});

describe("GET /api/v1/audit/export", () => {
  it("streams CSV with a header and correct escaping, in cursor batches", async () => {
    const res = await get(exportRoute.GET, "/api/v1/audit/export?format=csv&workspace=w1&tool=Bash");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(res.headers.get("content-disposition")).toMatch(/attachment; filename="audit-.*\.csv"/);
    expect(res.body).toBeInstanceOf(ReadableStream);
    const text = await res.text();
    const lines = text.split("\r\n");
    expect(lines[0]).toMatch(/^seq,at,type,workspace,actor,/);
    // seq 7's input holds a comma, quotes and a newline: one quoted field, quotes doubled.
    expect(text).toContain('"{""command"":""rm -rf build, \\""now\\""\\nplease""}"');
    const rows = text.trim().split("\r\n").slice(1);
    expect(rows).toHaveLength(13); // w1 and Bash: odd i not divisible by 3
  });

  it("streams JSONL, one event per line, and spans many batches", async () => {
    const { EXPORT_BATCH } = await import("@/lib/audit/query");
    expect(EXPORT_BATCH).toBeGreaterThan(0);
    const res = await get(exportRoute.GET, "/api/v1/audit/export?format=jsonl");
    const lines = (await res.text()).trim().split("\n");
    expect(lines).toHaveLength(41);
    expect(JSON.parse(lines[0]!)).toMatchObject({ seq: 41, type: "auth.login" });
    expect((await get(exportRoute.GET, "/api/v1/audit/export?format=xml")).status).toBe(400);
  });

  it("escapes CSV fields and defuses spreadsheet formulas", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField('a "b", c')).toBe('"a ""b"", c"');
    expect(csvField("line\nbreak")).toBe('"line\nbreak"');
    expect(csvField("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvField("-5")).toBe("-5");
    expect(csvField(null)).toBe("");
    expect(csvField({ a: 1 })).toBe('"{""a"":1}"');
  });
});

describe("GET /api/v1/audit/histogram", () => {
  it("counts decisions per bucket by outcome", async () => {
    const res = await get(histogramRoute.GET, "/api/v1/audit/histogram?buckets=10");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { buckets: { counts: Record<string, number> }[]; width: number };
    expect(body.buckets.length).toBeLessThanOrEqual(11);
    const total = (k: string) => body.buckets.reduce((n, b) => n + (b.counts[k] ?? 0), 0);
    expect(total("allow")).toBe(30);
    expect(total("deny")).toBe(10);
  });
});
