// A realistic mevedel permission-log.el (testdata/permission-log.el, written in the shape `mevedel-permission-log`
// and `mevedel-permission-queue--log` print): every event kind, both UTC offsets, multi-line strings, non-ASCII
// paths, nested plists and the dotted outcomes `(deny . "…")` / `(feedback . "…")`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type OpenedDb } from "@/db/client";
import { workspaces } from "@/db/schema";
import { importLogFile } from "@/lib/cli/verbs/audit";
import { MevedelLogReader } from "@/lib/agents/mevedel/permission-log";
import { configureAudit } from "./config";
import { mevedelOutcome, mevedelTime } from "@/lib/agents/mevedel/audit-log";
import { importEntries } from "./import";
import { readMevedelLog } from "@/lib/agents/mevedel/permission-log";
import { AuditPageQuery, listAuditEvents } from "./query";
import { verifyAudit } from "./verify";

const FIXTURE = path.join(__dirname, "testdata", "permission-log.el");
const owner = { kind: "local", role: "owner", name: "local-cli" } as const;
let opened: OpenedDb;
let dir: string;
let sessionDir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mevedel-import-"));
  configureAudit({ keyDir: dir });
  opened = await openDb({ kind: "embedded" });
  await opened.db.insert(workspaces).values({ id: "w", path: path.join(dir, "café"), name: "café" });
  // mevedel keeps one log per session folder: the folder names the session.
  sessionDir = path.join(dir, "sessions", "2026-08-19-refactor");
  fs.mkdirSync(sessionDir, { recursive: true });
  fs.copyFileSync(FIXTURE, path.join(sessionDir, "permission-log.el"));
});
afterAll(async () => {
  configureAudit({ keyDir: undefined });
  await opened.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const list = (q: Record<string, string>) =>
  listAuditEvents(opened.db, owner, AuditPageQuery.parse({ workspace: "w", limit: "200", ...q }));

describe("reading what mevedel prints", () => {
  it("reads every entry: multi-line strings, dotted pairs, nested plists, non-ASCII text", () => {
    const { entries, malformed } = readMevedelLog(fs.readFileSync(FIXTURE, "utf8"));
    expect(malformed).toEqual([]);
    expect(entries).toHaveLength(34);
    const kinds = new Set(entries.map((e) => e.fields.event));
    expect([...kinds].sort()).toEqual([
      "permission-aborted",
      "permission-coalesced",
      "permission-decision",
      "permission-displayed",
      "permission-enqueued",
      "permission-expired",
      "permission-resolved",
      "permission-review-completed",
      "permission-swept",
    ]);
    const denied = entries.find(
      (e) => e.fields["permission-id"] === "1724054370000000001-permission-13" && e.fields.outcome,
    )!;
    expect(denied.fields.outcome).toEqual({
      deny: 'Do not touch .git/config;\nedit .gitconfig.local instead (see "CONTRIBUTING").',
    });
    const sandbox = entries.find((e) => e.fields.kind === "sandbox")!;
    expect(sandbox.fields["requested-additional-permissions"]).toEqual({
      network: true,
      "file-system": [{ path: "/home/jörg/.npm", access: "write", recursive: true }],
    });
    // Entries starting on the line after a multi-line string keep their own line numbers.
    expect(entries.map((e) => e.line)).toContain(11);
  });

  it("still evaluates nothing and refuses reader tricks", () => {
    const { entries, malformed } = readMevedelLog(
      [
        '(:event permission-decision :outcome #.(delete-file "x"))',
        "(:event permission-decision :outcome (deny . ))",
        "(:event permission-decision :outcome (deny . a b))",
        "(:event permission-decision . t)",
        '(:event permission-decision :note #(delete-file "x"))',
        '(:event permission-decision :note #("styled" 0 6 (face bold)) :v [1 2])',
      ].join("\n"),
    );
    expect(malformed.map((m) => m.line)).toEqual([1, 2, 3, 4, 5]);
    expect(entries[0]!.fields).toMatchObject({ note: "styled", v: [1, 2] });
  });

  it("outcomes and times as mevedel writes them", () => {
    expect(mevedelOutcome({ deny: "why" })).toEqual({ outcome: "deny", raw: "deny", reason: "why" });
    expect(mevedelOutcome({ feedback: "text" })).toEqual({ outcome: "deny", raw: "feedback", feedback: "text" });
    expect(mevedelOutcome("allow-session")).toEqual({ outcome: "allow", raw: "allow-session" });
    expect(mevedelOutcome("aborted")).toEqual({ outcome: "aborted", raw: "aborted" });
    expect(mevedelTime("2026-08-19T09:58:01+0200")).toBe("2026-08-19T07:58:01.000Z");
    expect(mevedelTime("2026-08-19T17:12:05-0500")).toBe("2026-08-19T22:12:05.000Z");
    expect(mevedelTime("2026-08-19T17:12:05Z")).toBe("2026-08-19T17:12:05.000Z");
    expect(mevedelTime("yesterday")).toBeNull();
  });
});

describe("cockpit audit import of a real log", () => {
  it("imports every entry with its real keys; a re-import adds nothing", async () => {
    const file = path.join(sessionDir, "permission-log.el");
    const session = path.basename(sessionDir);
    const send = (entries: Parameters<typeof importEntries>[2]) =>
      importEntries(opened.db, { workspaceId: "w", agent: "mevedel", session }, entries);
    const first = await importLogFile(file, new MevedelLogReader(), send);
    expect(first).toMatchObject({ entries: 34, imported: 34, duplicates: 0, malformed: [] });
    const again = await importLogFile(file, new MevedelLogReader(), send);
    expect(again).toMatchObject({ entries: 34, imported: 0, duplicates: 34 });
    expect(await verifyAudit(opened.db, { keyDir: dir })).toMatchObject({ intact: true, events: 34 });

    const all = (await list({})).events;
    expect(all).toHaveLength(34);
    expect(all.every((e) => e.agent === "mevedel" && e.agentSession === session)).toBe(true);

    // permission-decision: tool, the specifier as the call's input, the bucket as the store.
    const rule = all.find((e) => e.type === "agent.decision" && e.store === "persistent")!;
    expect(rule).toMatchObject({
      tool: "Bash",
      outcome: "allow",
      source: "config",
      input: { command: "git log --oneline -20" },
      detail: { imported: { via: "rule", origin: "/root", mode: "ask", "command-class": "read-only" } },
    });
    const read = all.find((e) => e.tool === "Read" && e.type === "agent.decision")!;
    expect(read.input).toEqual({ path: "/home/jörg/projekte/café/README.md" });
    const glob = all.find((e) => e.tool === "Glob")!;
    expect(glob).toMatchObject({
      outcome: "ask",
      input: { path: "/srv/données/**" },
      detail: { imported: { "resource-path": "/srv/données" } },
    });
    const agent = all.find((e) => e.tool === "Agent")!;
    expect(agent).toMatchObject({ input: { name: "verifier" }, store: "session" });
    const hook = all.find((e) => (e.detail.imported as Record<string, unknown>).via === "pre-tool-hook")!;
    expect(hook).toMatchObject({ outcome: "deny", source: "hook" });

    // Queue events: the card's id, depth and modes; Eval's multi-line expression intact.
    const enq = all.find((e) => e.type === "card.enqueued" && e.tool === "Eval")!;
    expect(enq).toMatchObject({
      target: "1724054472000000002-permission-14",
      input: { expression: '(progn\n  (message "héllo, 世界")\n  (+ 1 2))' },
      detail: {
        imported: { "queue-depth": 1, "permission-mode-effective": "ask", "eval-mode": "live", origin: "/root/worker" },
      },
    });
    const protectedEnq = all.find((e) => e.type === "card.enqueued" && e.tool === "ApplyPatch")!;
    expect(protectedEnq.detail.imported).toMatchObject({ "protected-path": true, "resource-access": "write" });

    // Answers: the dotted pairs keep their text; allow-session / always-allow are a person's allows.
    const byId = (id: string, type: string) => all.find((e) => e.target === id && e.type === type)!;
    expect(byId("1724054370000000001-permission-13", "card.resolved")).toMatchObject({
      outcome: "deny",
      source: "user_reject",
      detail: {
        imported: { reason: 'Do not touch .git/config;\nedit .gitconfig.local instead (see "CONTRIBUTING").' },
      },
    });
    expect(byId("1724054472000000002-permission-14", "card.resolved")).toMatchObject({
      outcome: "deny",
      source: "user_reject",
      detail: {
        imported: { feedback: "Use batch mode,\nplease — live Eval touches my buffers.", outcomeRaw: "feedback" },
      },
    });
    expect(byId("1724054523000000003-permission-15", "card.resolved")).toMatchObject({
      outcome: "allow",
      source: "user_temporary",
      detail: { imported: { outcomeRaw: "allow-session" } },
    });
    expect(byId("1724054580000000005-permission-17", "card.resolved")).toMatchObject({
      outcome: "allow",
      source: "user_permanent",
      input: { domain: "docs.example.com" },
    });
    expect(byId("1724054320123456789-permission-12", "card.resolved")).toMatchObject({
      outcome: "allow",
      source: "user_temporary",
      toolUseId: null,
    });
    expect(byId("1724054523000000004-permission-16", "card.coalesced")).toMatchObject({
      outcome: "allow",
      source: "config",
    });
    // Teardown and expiry settle cards, but nobody decided them.
    expect(byId("1724105525000000007-permission-19", "card.aborted")).toMatchObject({
      outcome: "aborted",
      source: null,
    });
    expect(byId("1724105525000000008-permission-20", "card.swept")).toMatchObject({ outcome: "aborted", source: null });
    expect(byId("1724108400000000009-permission-21", "card.expired")).toMatchObject({
      outcome: "deny",
      source: null,
      detail: { imported: { reason: expect.stringContaining("\nDo not retry") } },
    });
    // Nested plists stay structured; the reviewer's result is kept as a decision of its own.
    const sandbox = byId("1724054731000000006-permission-18", "card.enqueued");
    expect((sandbox.detail.imported as Record<string, unknown>)["requested-additional-permissions"]).toEqual({
      network: true,
      "file-system": [{ path: "/home/jörg/.npm", access: "write", recursive: true }],
    });
    expect(byId("1724054731000000006-permission-18", "agent.decision")).toMatchObject({
      outcome: "deny",
      detail: { event: "permission-review-completed", imported: { "review-seconds": 1.42, "review-source": "auto" } },
    });
  });

  it("keeps the original time and filters on it", async () => {
    const all = (await list({})).events;
    const first = all.find((e) => e.detail.loggedAt === "2026-08-19T09:58:01+0200")!;
    expect(first.detail.occurredAt).toBe("2026-08-19T07:58:01.000Z");
    // The evening entries were written at -0500: 22:12 UTC onwards.
    const evening = await list({ timeOf: "occurred", from: "2026-08-19T22:00:00Z" });
    expect(evening.events).toHaveLength(10);
    expect(evening.events.every((e) => String(e.detail.loggedAt).endsWith("-0500"))).toBe(true);
    const morning = await list({ timeOf: "occurred", to: "2026-08-19T07:58:59Z" });
    expect(morning.events.map((e) => e.detail.loggedAt).sort()).toEqual([
      "2026-08-19T09:58:01+0200",
      "2026-08-19T09:58:07+0200",
      "2026-08-19T09:58:40+0200",
      "2026-08-19T09:58:40+0200",
      "2026-08-19T09:58:40+0200",
    ]);
    // The recorded time is the import's own, not the log's.
    expect((await list({ from: "2026-08-19T22:00:00Z", to: "2026-08-20T01:00:00Z" })).events).toHaveLength(0);
    expect(all.every((e) => e.at !== e.detail.occurredAt)).toBe(true);
  });
});
