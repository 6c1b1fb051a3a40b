/**
 * What an agent reports about itself, or what an imported log says, never poses as the cockpit's own knowledge:
 * its fields live under `detail.imported` (never `detail.trace`, `detail.passkey`, `detail.device`), and its tool
 * names follow the agents' grammar, as on the card API.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, setServerDb, type OpenedDb } from "@/db/client";
import { agentTokens, auditEvents, workspaces } from "@/db/schema";
import { createAgentToken } from "@/lib/auth/agent-tokens";
import * as eventsRoute from "@/app/api/agent/v1/events/route";
import { resetAgentEventLimits, takeAgentEvents } from "./agent-event-limits";
import { configureAudit } from "./config";
import { auditLog } from "@/lib/agents/mevedel/audit-log";
import { ImportBatch, importedEvent, importEntries } from "./import";
import { readMevedelLog } from "@/lib/agents/mevedel/permission-log";

let opened: OpenedDb;
let dir: string;
let token: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "audit-reported-"));
  configureAudit({ keyDir: dir });
  opened = await openDb({ kind: "embedded" });
  setServerDb(opened);
  await opened.db.insert(workspaces).values({ id: "w", path: path.join(dir, "project"), name: "project" });
  token = (
    await createAgentToken({ db: opened.db, actor: { kind: "local", name: "local-cli" }, input: { workspaceId: "w" } })
  ).token;
}, 120_000);
afterAll(async () => {
  configureAudit({ keyDir: undefined });
  await opened.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const report = (body: unknown) =>
  eventsRoute.POST(
    new NextRequest("http://localhost:3000/api/agent/v1/events", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({}) } as never,
  );

describe("agent-reported events", () => {
  it("refuse a tool name with hidden characters or outside the grammar", async () => {
    for (const tool of ["Ba\u202esh", "Bash\u200b", "rm -rf", "x;y"]) {
      const res = await report({ agent: "codex", events: [{ sessionId: "s", tool }] });
      expect(res.status, tool).toBe(400);
      expect((await res.json()).error).toMatch(/tool name/);
    }
    expect(
      (await report({ agent: "codex", events: [{ sessionId: "s", tool: "mcp__github__get_issue" }] })).status,
    ).toBe(201);
  });

  it("keep the agent's own words under detail.imported", async () => {
    const res = await report({
      agent: "codex",
      events: [{ sessionId: "s-imp", tool: "shell", reason: "the user said yes", at: "2026-05-01T10:00:00Z" }],
    });
    expect(res.status).toBe(201);
    const [row] = await opened.db.select().from(auditEvents).where(eq(auditEvents.agentSessionId, "s-imp"));
    expect(row!.detail).toEqual({ imported: { reportedAt: "2026-05-01T10:00:00Z", reason: "the user said yes" } });
  });
});

describe("imported mevedel log entries", () => {
  const forged =
    '(:event permission-resolved :tool "Bash" :outcome allow :specifier "curl x | sh" :settlement-source user' +
    ' :trace ((:step "allow-rule" :outcome "allow")) :passkey (:id "k" :name "Owner\'s phone") :device "Safari on iPhone"' +
    ' :signIn "passkey")';

  it("cannot pose as the cockpit's trace, passkey, device or sign-in: the log's fields live under detail.imported", async () => {
    const { entries } = readMevedelLog(forged);
    expect(entries).toHaveLength(1);
    const event = importedEvent(auditLog, "mevedel", "w", entries[0]!);
    expect(event.actor).toMatchObject({ type: "agent", label: "mevedel" });
    const detail = event.detail as Record<string, unknown>;
    for (const key of ["trace", "passkey", "device", "signIn"]) expect(detail[key], key).toBeUndefined();
    expect(detail.imported).toMatchObject({
      trace: expect.any(Array),
      passkey: expect.anything(),
      device: "Safari on iPhone",
    });

    await importEntries(opened.db, { workspaceId: "w", agent: "mevedel" }, entries);
    const [row] = await opened.db.select().from(auditEvents).where(eq(auditEvents.agent, "mevedel"));
    expect(row!.actorType).toBe("agent");
    expect(row!.detail).not.toHaveProperty("trace");
    expect(row!.detail).not.toHaveProperty("passkey");
    expect(row!.detail).not.toHaveProperty("device");
  });

  it("validate tool names: the reader reports a bad one by line, the import route refuses it", () => {
    const { entries, malformed } = readMevedelLog(
      [
        '(:event permission-decision :tool "Bash" :outcome allow)',
        '(:event permission-decision :tool "Ba\u202esh")',
      ].join("\n"),
    );
    expect(entries.map((e) => e.line)).toEqual([1]);
    expect(malformed).toEqual([{ line: 2, reason: expect.stringMatching(/Ba⟨U\+202E⟩sh.*not a tool name/) }]);
    const batch = (tool: unknown) => ({
      workspace: "/x",
      source: "mevedel",
      entries: [{ line: 7, key: "a".repeat(64), fields: { tool } }],
    });
    expect(ImportBatch.safeParse(batch("Bash")).success).toBe(true);
    const refused = ImportBatch.safeParse(batch("Ba\u202esh"));
    expect(refused.success).toBe(false);
    expect(refused.error!.issues[0]!.message).toMatch(/line 7: :tool "Ba⟨U\+202E⟩sh" is not a tool name/);
  });
});

describe("agent audit events per token", () => {
  const batch = (n: number, session: string) => ({
    agent: "codex",
    events: Array.from({ length: n }, (_, i) => ({ sessionId: session, tool: "shell", input: { command: `ls ${i}` } })),
  });
  const rows = async (session: string) =>
    Number(
      (await opened.db.select({ n: count() }).from(auditEvents).where(eq(auditEvents.agentSessionId, session)))[0]!.n,
    );

  it("a burst beyond the per-minute rate gets 429 with Retry-After and records nothing of that batch", async () => {
    resetAgentEventLimits();
    expect((await report(batch(500, "flood"))).status).toBe(201);
    const refused = await report(batch(500, "flood"));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await refused.json()).error).toMatch(/at most 600 a minute/);
    expect(await rows("flood")).toBe(500);
    resetAgentEventLimits();
  });

  it("the rate refills over time; the daily cap counts what the token already wrote today, even after a restart", async () => {
    resetAgentEventLimits();
    const [{ id }] = (await opened.db.select({ id: agentTokens.id }).from(agentTokens).limit(1)) as [{ id: string }];
    const limits = { perMinute: 60, burst: 100, perDay: 2000 };
    const t0 = Date.now();
    await takeAgentEvents(opened.db, id, 100, limits, t0);
    await expect(takeAgentEvents(opened.db, id, 1, limits, t0)).rejects.toMatchObject({ status: 429 });
    await takeAgentEvents(opened.db, id, 10, limits, t0 + 10_000);
    // A fresh process reads today's count from the log: the 500+ events written above already count.
    resetAgentEventLimits();
    const written = Number(
      (await opened.db.select({ n: count() }).from(auditEvents).where(eq(auditEvents.actorId, id)))[0]!.n,
    );
    expect(written).toBeGreaterThanOrEqual(500);
    const tight = { perMinute: 6000, burst: 6000, perDay: written + 5 };
    await takeAgentEvents(opened.db, id, 5, tight, t0);
    await expect(takeAgentEvents(opened.db, id, 1, tight, t0)).rejects.toMatchObject({
      status: 429,
      message: expect.stringMatching(/a day/),
    });
    resetAgentEventLimits();
  });
});
