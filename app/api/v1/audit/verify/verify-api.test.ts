import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, setServerDb, type OpenedDb } from "@/db/client";
import { checkpointNow, recordAudit, recordAuditBatch } from "@/lib/audit";
import { verifyAudit, verifyAuditOnce } from "@/lib/audit/verify";
import { resetHeavyWork } from "@/lib/work/heavy-work";
import * as healthRoute from "@/app/api/health/route";
import { configureAudit } from "@/lib/audit/config";
import { LOCAL_CREDENTIAL_ENV } from "@/lib/auth/local-credential";
import { hashToken } from "@/lib/auth/tokens";
import { POST } from "./route";

const LOCAL = "cpc_audit-verify-test-credential";
let opened: OpenedDb;
let keyDir: string;

beforeAll(async () => {
  keyDir = fs.mkdtempSync(path.join(os.tmpdir(), "audit-key-"));
  configureAudit({ keyDir });
  process.env[LOCAL_CREDENTIAL_ENV] = hashToken(LOCAL);
  opened = await openDb({ kind: "embedded" });
  setServerDb(opened);
  for (let i = 0; i < 3; i++)
    await opened.db.transaction((tx) =>
      recordAudit(tx, { type: "auth.logout", actor: { type: "local", label: "local-cli" }, target: `s${i}` }),
    );
  await checkpointNow(opened.db);
});
afterAll(async () => {
  configureAudit({ keyDir: undefined });
  await opened.close();
  fs.rmSync(keyDir, { recursive: true, force: true });
});

const verify = (headers: Record<string, string> = { authorization: `Bearer ${LOCAL}` }) =>
  POST(
    new NextRequest("http://localhost:3000/api/v1/audit/verify", {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: "{}",
    }),
    { params: Promise.resolve({}) } as never,
  );

describe("POST /api/v1/audit/verify", () => {
  it("needs a signed-in owner", async () => {
    expect([401, 403]).toContain((await verify({})).status);
  });

  it("answers intact, then names the first broken seq", async () => {
    const ok = await verify();
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({
      intact: true,
      events: 3,
      line: expect.stringMatching(/^intact: 3 events/),
    });
    await opened.db.execute(sql`update audit_events set target = 'sX' where seq = 2`);
    const broken = await verify();
    expect(await broken.json()).toMatchObject({
      intact: false,
      seq: 2,
      line: expect.stringMatching(/^broken at seq 2: /),
    });
  });
});

describe("a long verification does not hold the server", () => {
  it("yields between batches so /api/health answers meanwhile; callers share one run; 429 past the rate", async () => {
    await opened.db.execute(sql`update audit_events set target = 's1' where seq = 2`);
    await opened.db.transaction((tx) =>
      recordAuditBatch(
        tx,
        Array.from({ length: 1200 }, (_, i) => ({
          type: "auth.logout" as const,
          actor: { type: "local" as const, label: "local-cli" },
          target: `bulk${i}`,
        })),
      ),
    );
    let done = false;
    let health: Promise<{ status: number; beforeVerify: boolean }> | null = null;
    const report = await verifyAudit(opened.db, {
      keyDir,
      onYield: () => {
        health ??= healthRoute
          .GET(new NextRequest("http://localhost:3000/api/health"), { params: Promise.resolve({}) } as never)
          .then((res) => ({ status: res.status, beforeVerify: !done }));
      },
    }).finally(() => (done = true));
    expect(report).toMatchObject({ intact: true, events: 1203 });
    expect(health).not.toBeNull();
    expect(await health!).toEqual({ status: 200, beforeVerify: true });

    const [a, b] = [verifyAuditOnce(opened.db), verifyAuditOnce(opened.db)];
    expect(a).toBe(b);
    await a;

    resetHeavyWork();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await verify()).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
    resetHeavyWork();
  });
});
