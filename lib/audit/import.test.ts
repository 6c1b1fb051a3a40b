import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, setServerDb, type OpenedDb } from "@/db/client";
import { workspaces } from "@/db/schema";
import { LOCAL_CREDENTIAL_ENV } from "@/lib/auth/local-credential";
import { hashToken } from "@/lib/auth/tokens";
import { IMPORT_BATCH, importLogFile } from "@/lib/cli/verbs/audit";
import { MevedelLogReader } from "@/lib/agents/mevedel/permission-log";
import * as importRoute from "@/app/api/v1/audit/import/route";
import { configureAudit } from "./config";
import { importEntries } from "./import";
import { readMevedelLog } from "@/lib/agents/mevedel/permission-log";
import { listAuditEvents, AuditPageQuery } from "./query";
import { verifyAudit } from "./verify";

const LOCAL = "cpc_audit-import-test-credential";
let opened: OpenedDb;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "audit-import-"));
  configureAudit({ keyDir: dir });
  process.env[LOCAL_CREDENTIAL_ENV] = hashToken(LOCAL);
  opened = await openDb({ kind: "embedded" });
  setServerDb(opened);
  await opened.db.insert(workspaces).values({ id: "w", path: path.join(dir, "project"), name: "project" });
});
afterAll(async () => {
  configureAudit({ keyDir: undefined });
  await opened.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const entry = (i: number) =>
  `(:time "2026-05-01T10:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}Z" :event ${
    i % 10 === 0 ? "permission-resolved" : "permission-decision"
  } :tool "Bash" :outcome ${i % 7 === 0 ? "deny" : "allow"} :mode ask :specifier "npm test ${i}" :rule-bucket persistent :resolver-path (deny allow) :session "s${i % 50}" :approval-lifetime ${i % 20 === 0 ? "workspace" : "session"})`;

describe("reading mevedel's permission-log.el", () => {
  it("reads entries over several lines, reports malformed ones by line, and never evaluates", () => {
    const text = [
      "; mevedel permission log",
      entry(1),
      '(:event permission-decision :tool "Read"',
      '  :outcome allow :specifier "a (b) \\"c\\"")',
      "(:event permission-decision :tool", // never closes
      entry(2),
      '#.(delete-file "x")',
      '(:event permission-decision :tool "Bash" :outcome)',
      '(:tool #.(shell-command "rm -rf ~"))',
      "garbage",
      entry(3),
    ].join("\n");
    const { entries, malformed } = readMevedelLog(text);
    expect(entries.map((e) => e.line)).toEqual([2, 3, 6, 11]);
    expect(entries[1]!.fields).toMatchObject({ tool: "Read", specifier: 'a (b) "c"' });
    expect(entries[0]!.fields).toMatchObject({ event: "permission-decision", "resolver-path": ["deny", "allow"] });
    expect(malformed.map((m) => m.line)).toEqual([5, 7, 8, 9, 10]);
    expect(malformed.find((m) => m.line === 8)!.reason).toMatch(/odd number/);
    expect(malformed.find((m) => m.line === 9)!.reason).toMatch(/#/);
    // Identical entries get distinct keys (occurrence number), stable across reads.
    const twice = readMevedelLog(`${entry(1)}\n${entry(1)}`).entries;
    expect(twice[0]!.key).not.toBe(twice[1]!.key);
    expect(readMevedelLog(`${entry(1)}\n${entry(1)}`).entries.map((e) => e.key)).toEqual(twice.map((e) => e.key));
  });
});

describe("cockpit audit import", () => {
  // 2.5 batches: full batches and a partial one. The 100,000-entry volume run is bench/audit/import.ts.
  const N = Math.round(IMPORT_BATCH * 2.5);
  it(`imports a generated ${N}-entry log with malformed lines; the second import adds nothing`, async () => {
    const file = path.join(dir, "permission-log.el");
    const out = fs.createWriteStream(file);
    const bad = new Set<number>();
    let line = 0;
    for (let i = 0; i < N; i++) {
      if (i % 997 === 5) {
        out.write('(:event permission-decision :tool "Bash" :outcome\n');
        bad.add(++line);
      }
      out.write(entry(i) + "\n");
      line++;
    }
    await new Promise((r) => out.end(r));
    const send = (entries: Parameters<typeof importEntries>[2]) =>
      importEntries(opened.db, { workspaceId: "w", agent: "mevedel" }, entries);
    const seen: number[] = [];
    const first = await importLogFile(file, new MevedelLogReader(), send, (bytes) => seen.push(bytes));
    expect(first).toMatchObject({ entries: N, imported: N, duplicates: 0 });
    expect(bad.size).toBeGreaterThanOrEqual(5);
    expect(first.malformed.map((m) => m.line)).toEqual([...bad]);
    // One batch at a time: two full ones and the rest.
    expect(seen).toHaveLength(3);
    expect(seen.at(-1)).toBe(fs.statSync(file).size);
    const again = await importLogFile(file, new MevedelLogReader(), send);
    expect(again).toMatchObject({ entries: N, imported: 0, duplicates: N });

    const report = await verifyAudit(opened.db, { keyDir: dir });
    expect(report).toMatchObject({ intact: true, events: N });
    const owner = { kind: "local", role: "owner", name: "local-cli" } as const;
    const denied = await listAuditEvents(
      opened.db,
      owner,
      AuditPageQuery.parse({ workspace: "w", agent: "mevedel", outcome: "deny", source: "config", limit: "1" }),
    );
    expect(denied.events[0]).toMatchObject({
      type: "agent.decision",
      tool: "Bash",
      outcome: "deny",
      source: "config",
      store: "persistent",
      input: { specifier: expect.stringMatching(/^npm test \d+$/) },
      detail: { loggedAt: expect.any(String), importedFrom: "mevedel permission-log.el" },
    });
    const permanent = await listAuditEvents(
      opened.db,
      owner,
      AuditPageQuery.parse({ type: "card.resolved", source: "user_permanent", limit: "200" }),
    );
    expect(permanent.events).toHaveLength(200);
  }, 600_000);

  it("the import route is owner-only and takes the workspace by folder", async () => {
    const call = (bearer: string | null, body: unknown) =>
      importRoute.POST(
        new NextRequest("http://localhost:3000/api/v1/audit/import", {
          method: "POST",
          headers: { "content-type": "application/json", ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
          body: JSON.stringify(body),
        }),
        { params: Promise.resolve({}) } as never,
      );
    const { entries } = readMevedelLog(`${entry(1)}\n(:event permission-decision :tool "Glob" :outcome allow)`);
    const body = { workspace: path.join(dir, "project"), source: "mevedel", entries };
    expect([401, 403]).toContain((await call(null, body)).status);
    expect((await call(LOCAL, { ...body, entries: [{ line: 1, key: "x", fields: {} }] })).status).toBe(400);
    // Only an agent that keeps its own permission log (the catalogue's auditLog) can be imported from.
    const foreign = await call(LOCAL, { ...body, source: "claude-code" });
    expect(foreign.status).toBe(400);
    expect(JSON.stringify(await foreign.json())).toContain('expected \\"mevedel\\"');
    const res = await call(LOCAL, body);
    expect(res.status).toBe(200);
    // entry(1) came in with the big file already; the Glob entry is new.
    expect(await res.json()).toEqual({ imported: 1, duplicates: 1 });
  });
});
