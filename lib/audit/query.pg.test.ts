import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshPostgres } from "@/db/test-postgres";
import { configureAudit } from "./config";
import { importEntries } from "./import";
import { readMevedelLog } from "@/lib/agents/mevedel/permission-log";
import { AuditPageQuery, exportAuditStream, listAuditEvents } from "./query";
import { recordAuditBatch } from "./record";
import { verifyAudit } from "./verify";

let pg: Awaited<ReturnType<typeof freshPostgres>>;
let keyDir: string;
const OWNER = { kind: "local", role: "owner", name: "local-cli" } as const;

beforeAll(async () => {
  pg = await freshPostgres();
  keyDir = fs.mkdtempSync(path.join(os.tmpdir(), "audit-query-pg-"));
  configureAudit({ keyDir, checkpointEvery: 50 });
});
afterAll(async () => {
  configureAudit({ keyDir: undefined, checkpointEvery: 1000 });
  if (pg) await pg.drop();
  fs.rmSync(keyDir, { recursive: true, force: true });
});

describe("audit queries on PostgreSQL", () => {
  it("batch appends chain and checkpoint; filters, trigram search, cursor pages, export and import dedupe work", async (ctx) => {
    if (!pg) return ctx.skip();
    const db = pg.db;
    await db.transaction((tx) =>
      recordAuditBatch(
        tx,
        Array.from({ length: 120 }, (_, i) => ({
          type: "agent.decision" as const,
          actor: { type: "agent" as const, label: "agent:ci" },
          workspaceId: i % 2 ? "a" : "b",
          outcome: i % 3 ? "allow" : "deny",
          tool: "Bash",
          input: { command: i === 42 ? "rm -rf BUILD/" : `make t${i}` },
        })),
      ),
    );
    expect(await verifyAudit(db, { keyDir })).toMatchObject({ intact: true, events: 120, checkpoints: 2 });
    const q = (f: Record<string, string>) => listAuditEvents(db, OWNER, AuditPageQuery.parse(f));
    expect((await q({ q: "rm -rf build" })).events.map((e) => e.seq)).toEqual([43]);
    expect((await q({ workspace: "a", outcome: "deny", limit: "200" })).events).toHaveLength(20);
    const first = await q({ limit: "50" });
    const second = await q({ limit: "50", cursor: first.next! });
    expect(second.events[0]!.seq).toBe(70);
    const stream = await exportAuditStream(db, OWNER, { workspace: "b" }, "jsonl");
    expect((await new Response(stream).text()).trim().split("\n")).toHaveLength(60);

    const { entries } = readMevedelLog('(:event permission-decision :tool "Bash" :outcome allow)\n');
    expect(await importEntries(db, { workspaceId: "a", agent: "mevedel" }, entries)).toEqual({
      imported: 1,
      duplicates: 0,
    });
    expect(await importEntries(db, { workspaceId: "a", agent: "mevedel" }, entries)).toEqual({
      imported: 0,
      duplicates: 1,
    });
  });
});
