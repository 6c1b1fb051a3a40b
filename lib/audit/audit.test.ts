import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDb, type Db, type OpenedDb } from "@/db/client";
import { auditCheckpoints, auditEvents } from "@/db/schema";
import { SYSTEM_ACTOR } from "./actor";
import { rowHash, type ChainedRow } from "./chain";
import { checkpointNow } from "./checkpoint";
import { configureAudit } from "./config";
import { KEY_FILE, MAC_EPOCH_FILE } from "./keys";
import { recordAudit } from "./record";
import { cutRetention } from "./retention";
import { verifyAudit } from "./verify";

let opened: OpenedDb;
let keyDir: string;
const db = () => opened.db;
const actor = { type: "user" as const, label: "olga", id: "u1", role: "owner", session: "s1", channel: "web" };

async function append(n: number, extra: Record<string, unknown> = {}) {
  for (let i = 0; i < n; i++)
    await db().transaction((tx) =>
      recordAudit(tx, {
        type: "agent.decision",
        actor,
        workspaceId: "w1",
        outcome: i % 2 ? "allow" : "deny",
        decisionSource: "config",
        tool: "Bash",
        input: { command: `echo ${i}` },
        detail: { i, ...extra },
      }),
    );
}

/** Runs a tampering inside a transaction, verifies, and rolls the tampering back. */
async function tampered(change: string) {
  let report: Awaited<ReturnType<typeof verifyAudit>> | undefined;
  await db()
    .transaction(async (tx) => {
      for (const statement of change.split(";")) await tx.execute(sql.raw(statement));
      report = await verifyAudit(tx as unknown as Db, { keyDir });
      throw new Error("rollback");
    })
    .catch((e: Error) => {
      if (e.message !== "rollback") throw e;
    });
  return report!;
}

beforeAll(async () => {
  opened = await openDb({ kind: "embedded" });
  keyDir = fs.mkdtempSync(path.join(os.tmpdir(), "audit-key-"));
  configureAudit({ keyDir, checkpointEvery: 1000 });
});
afterAll(async () => {
  configureAudit({ keyDir: undefined, checkpointEvery: 1000 });
  await opened.close();
  fs.rmSync(keyDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await db().delete(auditEvents);
  await db().delete(auditCheckpoints);
});

describe("recordAudit", () => {
  it("refuses to write outside a transaction", async () => {
    await expect(recordAudit(db() as never, { type: "auth.logout", actor })).rejects.toThrow(/inside the transaction/);
  });

  it("rejects an unknown type and a bad decision source", async () => {
    await expect(db().transaction((tx) => recordAudit(tx, { type: "nope" as never, actor }))).rejects.toThrow();
    await expect(
      db().transaction((tx) => recordAudit(tx, { type: "agent.decision", actor, decisionSource: "maybe" as never })),
    ).rejects.toThrow();
  });

  it("fills the event fields, chains rows and masks secrets in the input", async () => {
    await db().transaction((tx) =>
      recordAudit(tx, {
        type: "agent.pre_tool_use",
        actor: { ...actor, address: "10.0.0.7" },
        workspaceId: "w1",
        agent: "claude-code",
        agentSessionId: "sess-1",
        toolUseId: "toolu_1",
        cwd: "/p",
        tool: "Write",
        input: { file_path: "/p/.env", content: "API_KEY=abc123" },
      }),
    );
    await db().transaction((tx) =>
      recordAudit(tx, {
        type: "agent.pre_tool_use",
        actor,
        tool: "Bash",
        input: { command: 'curl -H "Authorization: Bearer sk-abcdefghijkl" https://x && export GITHUB_TOKEN=ghp_123' },
      }),
    );
    const rows = await db().select().from(auditEvents).orderBy(auditEvents.seq);
    expect(rows.map((r) => r.seq)).toEqual([1, 2]);
    expect(rows[0]).toMatchObject({
      actorType: "user",
      actorId: "u1",
      actorRole: "owner",
      actorSession: "s1",
      actorChannel: "web",
      actorAddress: "10.0.0.7",
      agentSessionId: "sess-1",
      toolUseId: "toolu_1",
      prevHash: "0".repeat(64),
    });
    expect(rows[1]!.prevHash).toBe(rows[0]!.hash);
    const stored = JSON.stringify(rows.map((r) => r.input));
    expect(stored).not.toContain("abc123");
    expect(stored).not.toContain("sk-abcdefghijkl");
    expect(stored).not.toContain("ghp_123");
    expect(rows[0]!.input).toEqual({ file_path: "/p/.env", content: "[omitted: 14 characters]" });
  });
});

describe("verifyAudit", () => {
  beforeEach(async () => {
    await append(6);
    await checkpointNow(db());
    await append(4);
  });

  it("reports an intact chain", async () => {
    expect(await verifyAudit(db(), { keyDir })).toMatchObject({ intact: true, events: 10, checkpoints: 1 });
    expect((fs.statSync(path.join(keyDir, KEY_FILE)).mode & 0o777).toString(8)).toBe("600");
  });

  const columns: Array<[string, string]> = [
    ["at", "at = at + interval '1 millisecond'"],
    ["workspace_id", "workspace_id = 'w2'"],
    ["actor", "actor = 'olgA'"],
    ["actor_type", "actor_type = 'agent'"],
    ["actor_id", "actor_id = 'u2'"],
    ["actor_role", "actor_role = 'admin'"],
    ["actor_session", "actor_session = 's2'"],
    ["actor_channel", "actor_channel = 'cli'"],
    ["actor_address", "actor_address = '1.2.3.4'"],
    ["action", "action = 'agent.decisioN'"],
    ["target", "target = 'x'"],
    ["outcome", "outcome = 'allow'"],
    ["decision_source", "decision_source = 'hook'"],
    ["rule", "rule = 'Bash(*)'"],
    ["store", "store = 'x'"],
    ["agent", "agent = 'mevedel'"],
    ["agent_session_id", "agent_session_id = 'x'"],
    ["tool_use_id", "tool_use_id = 'x'"],
    ["cwd", "cwd = '/'"],
    ["tool", "tool = 'Bas'"],
    ["input", `input = '{"command":"echo 5!"}'`],
    ["detail", `detail = '{"i":6}'`],
    // Flip the first hex digit (placing a fixed 'f' would change nothing when the hash already starts with one).
    [
      "prev_hash",
      "prev_hash = overlay(prev_hash placing (case when left(prev_hash, 1) = 'f' then '0' else 'f' end) from 1 for 1)",
    ],
    ["hash", "hash = overlay(hash placing (case when left(hash, 1) = 'f' then '0' else 'f' end) from 1 for 1)"],
  ];
  it.each(columns)("catches a change in %s", async (_col, set) => {
    const report = await tampered(`update audit_events set ${set} where seq = 5`);
    expect(report).toMatchObject({ intact: false, seq: expect.any(Number) });
    expect((report as { seq: number }).seq).toBeLessThanOrEqual(6);
  });

  it("catches a deleted row", async () => {
    expect(await tampered("delete from audit_events where seq = 3")).toMatchObject({ intact: false, seq: 3 });
  });

  it("catches two rows swapped", async () => {
    const report = await tampered(
      "update audit_events set seq = -3 where seq = 3; update audit_events set seq = 3 where seq = 4; update audit_events set seq = 4 where seq = -3",
    );
    expect(report).toMatchObject({ intact: false, seq: 3 });
  });

  it("catches a forged checkpoint", async () => {
    const forged = await tampered(
      "update audit_checkpoints set head_hash = (select hash from audit_events where seq = 8), seq = 8",
    );
    expect(forged).toMatchObject({ intact: false, seq: 8, reason: expect.stringMatching(/signature/) });
  });

  it("catches a truncated tail after a checkpoint", async () => {
    expect(await tampered("delete from audit_events where seq >= 5")).toMatchObject({
      intact: false,
      seq: 5,
      reason: expect.stringMatching(/truncated/),
    });
  });

  it("catches a rewrite of the whole chain that keeps the signed checkpoint", async () => {
    const report = await tampered("delete from audit_events where seq <= 2");
    expect(report).toMatchObject({ intact: false, reason: expect.stringMatching(/no signed checkpoint/) });
  });

  // Issue 18, MEDIUM 6: rows after the last signed checkpoint used to be rewritable with plain SHA-256.
  it("catches a tail row edited and the chain after it re-hashed without the key (the row MAC)", async () => {
    let report: Awaited<ReturnType<typeof verifyAudit>> | undefined;
    await db()
      .transaction(async (tx) => {
        await tx.execute(sql.raw(`update audit_events set input = '{"command":"echo innocent"}' where seq = 8`));
        // The attacker knows the algorithm: recompute hash and prev_hash from seq 8 to the head.
        let prev = (await tx.select().from(auditEvents).where(eq(auditEvents.seq, 7)))[0]!.hash!;
        for (let seq = 8; seq <= 10; seq++) {
          const [row] = await tx.select().from(auditEvents).where(eq(auditEvents.seq, seq));
          const hash = rowHash({ ...row!, seq, prevHash: prev } as ChainedRow);
          await tx.update(auditEvents).set({ prevHash: prev, hash }).where(eq(auditEvents.seq, seq));
          prev = hash;
        }
        report = await verifyAudit(tx as unknown as Db, { keyDir });
        throw new Error("rollback");
      })
      .catch((e: Error) => {
        if (e.message !== "rollback") throw e;
      });
    expect(report).toMatchObject({ intact: false, seq: 8, reason: expect.stringMatching(/MAC does not match/) });
  });

  it("catches MACs stripped from the newest rows", async () => {
    expect(await tampered("update audit_events set mac = null where seq >= 9")).toMatchObject({
      intact: false,
      seq: 9,
      reason: expect.stringMatching(/no MAC/),
    });
  });

  it("catches every MAC stripped and the tail rewritten: MACs are required from the seq recorded beside the key", async () => {
    let report: Awaited<ReturnType<typeof verifyAudit>> | undefined;
    await db()
      .transaction(async (tx) => {
        // Without the key the attacker cannot MAC, so they drop every MAC to pass as a log from before MACs existed.
        await tx.execute(sql.raw(`update audit_events set mac = null`));
        await tx.execute(sql.raw(`update audit_events set input = '{"command":"echo innocent"}' where seq = 8`));
        let prev = (await tx.select().from(auditEvents).where(eq(auditEvents.seq, 7)))[0]!.hash!;
        for (let seq = 8; seq <= 10; seq++) {
          const [row] = await tx.select().from(auditEvents).where(eq(auditEvents.seq, seq));
          const hash = rowHash({ ...row!, seq, prevHash: prev } as ChainedRow);
          await tx.update(auditEvents).set({ prevHash: prev, hash }).where(eq(auditEvents.seq, seq));
          prev = hash;
        }
        report = await verifyAudit(tx as unknown as Db, { keyDir });
        throw new Error("rollback");
      })
      .catch((e: Error) => {
        if (e.message !== "rollback") throw e;
      });
    expect(report).toMatchObject({
      intact: false,
      seq: 1,
      reason: expect.stringMatching(/no MAC although every event since seq 1/),
    });
    expect(JSON.parse(fs.readFileSync(path.join(keyDir, MAC_EPOCH_FILE), "utf8"))).toEqual({ fromSeq: 1 });
  });

  it("says so when the signing key is gone", async () => {
    const other = fs.mkdtempSync(path.join(os.tmpdir(), "audit-key-"));
    expect(await verifyAudit(db(), { keyDir: other })).toMatchObject({ intact: false, reason: /key is missing/ });
  });
});

describe("checkpoints and retention", () => {
  it("signs a checkpoint every N events", async () => {
    configureAudit({ checkpointEvery: 5 });
    try {
      await append(12);
    } finally {
      configureAudit({ checkpointEvery: 1000 });
    }
    const cps = await db().select().from(auditCheckpoints).orderBy(auditCheckpoints.seq);
    expect(cps.map((c) => c.seq)).toEqual([5, 10]);
    expect(await verifyAudit(db(), { keyDir })).toMatchObject({ intact: true, events: 12, checkpoints: 2 });
  });

  it("cuts old events only up to a signed checkpoint, records the cut and still verifies", async () => {
    await append(5);
    await checkpointNow(db());
    await append(3);
    await db().execute(sql`update audit_events set at = at - interval '100 days' where seq <= 7`);
    // Moving times breaks their hashes; re-seal to simulate events that are really old.
    await db().execute(sql`update audit_events set hash = null`);
    await db().delete(auditCheckpoints);
    await db().transaction((tx) => recordAudit(tx, { type: "auth.logout", actor })); // seals, seq 9
    await checkpointNow(db()); // seq 9 — too young to cut at
    expect(await cutRetention(db(), { cutoff: new Date(Date.now() - 50 * 86_400_000) })).toEqual({
      deleted: 0,
      upToSeq: null,
    });

    // A checkpoint at seq 5 (old) makes the cut possible.
    const { writeCheckpoint } = await import("./checkpoint");
    const { lockHead } = await import("./head");
    await db().transaction(async (tx) => {
      await lockHead(tx);
      const [row] = await tx
        .select()
        .from(auditEvents)
        .where(sql`seq = 5`);
      await writeCheckpoint(tx, { seq: 5, hash: row!.hash! });
    });
    const result = await cutRetention(db(), { cutoff: new Date(Date.now() - 50 * 86_400_000), actor: SYSTEM_ACTOR });
    expect(result).toEqual({ deleted: 5, upToSeq: 5 });
    const rows = await db().select().from(auditEvents).orderBy(auditEvents.seq);
    expect(rows[0]!.seq).toBe(6);
    expect(rows.at(-1)).toMatchObject({ action: "audit.retention_cut", detail: { upToSeq: 5, deleted: 5 } });
    expect(await verifyAudit(db(), { keyDir })).toMatchObject({ intact: true, events: 5, firstSeq: 6 });
  });
});

describe("auditActor: attribution from the typed actor", () => {
  it("records the person, their role in the workspace acted on, session, channel, device and passkey", async () => {
    const { auditActor } = await import("./actor");
    const { personActor } = await import("@/test/support/auth");
    const person = personActor({
      userId: "u-ann",
      name: "Ann",
      sessionId: "s-ann",
      device: "Safari on iPhone",
      channel: "phone",
      grants: [
        { workspace: "w1", role: "approver" },
        { workspace: "w2", role: "admin" },
      ],
    });
    const actor = auditActor(person, { workspaceId: "w1", passkey: { id: "k1", name: "Ann's phone" } });
    expect(actor).toMatchObject({ type: "user", id: "u-ann", role: "approver", session: "s-ann", channel: "phone" });
    expect(auditActor(person, { workspaceId: null }).role).toBeNull();
    await db().transaction((tx) => recordAudit(tx, { type: "card.resolved", actor, target: "card-attr" }));
    const [row] = await db()
      .select()
      .from(auditEvents)
      .where(sql`${auditEvents.target} = 'card-attr'`);
    expect(row).toMatchObject({ actor: "Ann", actorRole: "approver", actorSession: "s-ann", actorChannel: "phone" });
    expect(row!.detail).toMatchObject({ device: "Safari on iPhone", passkey: { id: "k1", name: "Ann's phone" } });
    const notification = auditActor(
      { kind: "notification", name: "ntfy button", workspaceId: "w1", cardId: "c1" },
      { workspaceId: "w1", channel: "ntfy" },
    );
    expect(notification).toMatchObject({ type: "notification", role: "approver", channel: "ntfy" });
    expect(auditActor({ kind: "local", name: "local-cli" })).toMatchObject({ type: "local", channel: "cli" });
  });
});
