import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshPostgres } from "@/db/test-postgres";
import { auditCheckpoints, auditEvents } from "@/db/schema";
import { configureAudit } from "./config";
import { recordAudit } from "./record";
import { verifyAudit } from "./verify";

let pg: Awaited<ReturnType<typeof freshPostgres>>;
let keyDir: string;

beforeAll(async () => {
  pg = await freshPostgres();
  keyDir = fs.mkdtempSync(path.join(os.tmpdir(), "audit-pg-key-"));
  configureAudit({ keyDir, checkpointEvery: 10 });
});
afterAll(async () => {
  configureAudit({ keyDir: undefined, checkpointEvery: 1000 });
  if (pg) await pg.drop();
  fs.rmSync(keyDir, { recursive: true, force: true });
});

describe("audit chain on PostgreSQL", () => {
  it("100 parallel appends never fork the chain", async (ctx) => {
    if (!pg) return ctx.skip();
    const actor = { type: "agent" as const, label: "agent:ci", channel: "agent" };
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        pg!.db.transaction((tx) =>
          recordAudit(tx, { type: "agent.decision", actor, outcome: "allow", tool: "Bash", detail: { i } }),
        ),
      ),
    );
    const rows = await pg.db.select().from(auditEvents).orderBy(asc(auditEvents.seq));
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.prevHash).toBe(rows[i - 1]!.hash);
    expect(new Set(rows.map((r) => r.prevHash)).size).toBe(100);
    const checkpoints = await pg.db.select().from(auditCheckpoints).orderBy(asc(auditCheckpoints.seq));
    expect(checkpoints.map((c) => c.seq)).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
    expect(await verifyAudit(pg.db, { keyDir })).toMatchObject({ intact: true, events: 100, checkpoints: 10 });
  });
});
