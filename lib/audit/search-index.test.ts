import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type OpenedDb } from "@/db/client";
import { auditEvents } from "@/db/schema";
import { configureAudit } from "./config";
import { AuditPageQuery, auditRows, listAuditEvents } from "./query";
import { recordAuditBatch } from "./record";
import { catchUpAuditSearch, indexAuditSearch, indexedWord, prepareSearch, searchCondition } from "./search-index";

let opened: OpenedDb;
let keyDir: string;
const OWNER = { kind: "local", role: "owner", name: "local-cli" } as const;
const count = async (table: string) =>
  Number(
    ((await opened.db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as { rows: { n: number }[] })
      .rows[0]!.n,
  );

async function append(commands: string[]) {
  await opened.db.transaction((tx) =>
    recordAuditBatch(
      tx,
      commands.map((command) => ({
        type: "agent.decision" as const,
        actor: { type: "agent" as const, label: "agent:ci", channel: "agent" as const },
        workspaceId: "w1",
        outcome: "allow",
        tool: "Bash",
        input: { command },
      })),
    ),
  );
}

const search = async (q: string) =>
  (await listAuditEvents(opened.db, OWNER, AuditPageQuery.parse({ q, limit: "100" }))).events.map(
    (e) => (e.input as { command: string }).command,
  );

beforeAll(async () => {
  keyDir = fs.mkdtempSync(path.join(os.tmpdir(), "audit-search-"));
  configureAudit({ keyDir });
  opened = await openDb({ kind: "embedded" });
});
afterAll(async () => {
  configureAudit({ keyDir: undefined });
  await opened.close();
  fs.rmSync(keyDir, { recursive: true, force: true });
});

describe("the audit search index", () => {
  it("is written off the insert path, in seq order, once per event", async () => {
    await append(Array.from({ length: 25 }, (_, i) => `npm run job-${i}`));
    expect(await count("audit_events")).toBe(25);
    expect(await count("audit_search")).toBe(0);
    expect(await indexAuditSearch(opened.db, 10)).toBe(10);
    expect(await catchUpAuditSearch(opened.db)).toBe(15);
    expect(await indexAuditSearch(opened.db)).toBe(0);
    const rows = (await opened.db.execute(sql`select seq, text from audit_search order by seq`)) as {
      rows: { seq: number; text: string }[];
    };
    expect(rows.rows.map((r) => Number(r.seq))).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(rows.rows[3]!.text).toContain("npm run job-3");
    expect(rows.rows[3]!.text).toContain("agent:ci");
  });

  it("finds events the worker has not indexed yet: a search indexes them first", async () => {
    await append(["git push --force origin MAIN", "git status"]);
    expect(await search("PUSH --force")).toEqual(["git push --force origin MAIN"]);
    expect(await count("audit_search")).toBe(await count("audit_events"));
    // `%` and `_` are literal.
    expect(await search("job_1")).toEqual([]);
    expect(await search("job-1")).toEqual([
      "npm run job-19",
      "npm run job-18",
      "npm run job-17",
      "npm run job-16",
      "npm run job-15",
      "npm run job-14",
      "npm run job-13",
      "npm run job-12",
      "npm run job-11",
      "npm run job-10",
      "npm run job-1",
    ]);
  });

  it("a several-word search looks up its longest word and keeps only events holding the whole text", async () => {
    expect(indexedWord("npm run task-4242")).toBe("task-4242");
    expect(indexedWord("rm -rf")).toBe("-rf");
    expect(indexedWord("bash")).toBeNull();
    expect(indexedWord("a b")).toBeNull();
    await append(["npm run deploy-9 --prod", "npm test deploy-9", "deploy-9 npm run", "npm  run deploy-9"]);
    expect(await search("npm run deploy-9")).toEqual(["npm run deploy-9 --prod"]);
    expect(await search("RUN DEPLOY-9 --PROD")).toEqual(["npm run deploy-9 --prod"]);
    // The whole text is matched literally: `%` and `_` in it match only themselves.
    expect(await search("npm_run deploy-9")).toEqual([]);
    expect(await search("npm % deploy-9")).toEqual([]);
  });

  it("far behind, it indexes a bounded amount and scans the rest, so nothing is missed", async () => {
    await append(["rm -rf build", "echo unindexed"]);
    const state = await prepareSearch(opened.db, 0);
    expect(state.behindFrom).toBe((await count("audit_events")) - 2);
    const found = await opened.db
      .select({ seq: auditEvents.seq })
      .from(auditEvents)
      .where(searchCondition("rm -rf", state));
    expect(found).toHaveLength(1);
    const v = { workspaceIds: "all", global: true, machineEntries: true } as const;
    expect((await auditRows(opened.db, v, { q: "unindexed" }, 10)).map((r) => r.input)).toEqual([
      { command: "echo unindexed" },
    ]);
  });
});
