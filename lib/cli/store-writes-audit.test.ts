import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { NextRequest } from "next/server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { openDb, setServerDb, type OpenedDb } from "@/db/client";
import { auditEvents, workspaces } from "@/db/schema";
import { POST } from "@/app/api/local/store-writes/route";
import { LOCAL_CREDENTIAL_ENV } from "@/lib/auth/local-credential";
import { hashToken } from "@/lib/auth/tokens";
import { recordCliStoreWrite } from "@/lib/entries";
import type { Entry } from "@/lib/stores/types";
import { FIXTURES, makeSandbox, type Sandbox } from "@/test/support/stores";
import { personActor } from "@/test/support/auth";
import { ALL_WORKSPACES } from "@/lib/auth/actor";
import { runCli as cli } from "@/test/support/cli";

/**
 * "Every store write, whatever its origin, writes its entry.* row with old and new version": `cockpit revoke`,
 * `narrow` and `add` write the file themselves, then the running cockpit records the row (POST
 * /api/local/store-writes). Here the cockpit is the route handler in process, reached through `fetch`.
 */
const TOKEN = "cpc_store-writes-audit-local-credential";
let opened: OpenedDb;
let sb: Sandbox;
let workspaceId: string;
const saved = { ...process.env };

beforeAll(async () => {
  opened = await openDb({ kind: "embedded" });
  setServerDb(opened);
}, 120_000);
afterAll(async () => {
  await opened.close();
});
beforeEach(async () => {
  sb = makeSandbox("cli-audit-");
  process.env.HOME = sb.home;
  process.env.COCKPIT_MANAGED_SETTINGS = path.join(sb.root, "no-managed.json");
  process.env[LOCAL_CREDENTIAL_ENV] = hashToken(TOKEN);
  process.env.COCKPIT_URL = "http://cockpit.test";
  process.env.COCKPIT_CLI_TOKEN = TOKEN;
  workspaceId = crypto.randomUUID();
  await opened.db.insert(workspaces).values({ id: workspaceId, path: fs.realpathSync(sb.workspace), name: "p" });
  vi.stubGlobal("fetch", async (url: string | URL, init?: RequestInit) =>
    POST(new NextRequest(new URL(url), init as never), { params: Promise.resolve({}) } as never),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  for (const key of ["HOME", "COCKPIT_MANAGED_SETTINGS", LOCAL_CREDENTIAL_ENV, "COCKPIT_URL", "COCKPIT_CLI_TOKEN"])
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  sb.cleanup();
});

const version = (rel: string) =>
  createHash("sha256")
    .update(fs.readFileSync(sb.abs(rel)))
    .digest("hex");
const entries = async () => JSON.parse((await cli("entries", "--workspace", sb.workspace, "--json")).out) as Entry[];
const rows = (action: string) =>
  opened.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, action), eq(auditEvents.workspaceId, workspaceId)));

describe("CLI store writes leave their entry.* audit row", () => {
  it("revoke records entry.revoked with the file's old and new version, as the local CLI", async () => {
    sb.write(".claude/settings.json", FIXTURES.claudeTabs);
    const before = version(".claude/settings.json");
    const [first] = await entries();
    const res = await cli("revoke", first!.id, "--workspace", sb.workspace);
    expect(res).toMatchObject({ code: 0, err: "" });
    expect(res.out).toContain("revoked in");
    const [row] = await rows("entry.revoked");
    expect(row).toMatchObject({ actor: "local-cli", actorType: "local", target: first!.id, rule: first!.rule });
    expect(row!.detail).toMatchObject({
      oldVersion: before,
      newVersion: version(".claude/settings.json"),
      scope: "workspace",
      via: "cli",
    });
    expect(before).not.toBe(version(".claude/settings.json"));
  });

  it("narrow records entry.narrowed with both versions and the narrower entry", async () => {
    sb.write(".commandcode/settings.json", FIXTURES.commandcodeJsonc);
    const before = version(".commandcode/settings.json");
    const git = (await entries()).find((e) => e.rule === "Shell(git:*)")!;
    const res = await cli("narrow", git.id, "--to", "Shell(git status:*)", "--workspace", sb.workspace);
    expect(res).toMatchObject({ code: 0, err: "" });
    const [row] = await rows("entry.narrowed");
    expect(row!.detail).toMatchObject({
      oldVersion: before,
      newVersion: version(".commandcode/settings.json"),
      to: "Shell(git status:*)",
      rule: "Shell(git:*)",
    });
  });

  it("add records entry.added (a missing file's old version is `missing`); a duplicate writes and records nothing", async () => {
    const add = () =>
      cli(
        "add",
        ...["--workspace", sb.workspace, "--agent", "claude-code", "--scope", "workspace"],
        ...["--action", "deny", "--rule", "Bash(rm -rf *)"],
      );
    const res = await add();
    expect(res).toMatchObject({ code: 0, err: "" });
    const added = await rows("entry.added");
    expect(added).toHaveLength(1);
    expect(added[0]!.detail).toMatchObject({
      entryAction: "deny",
      rule: "Bash(rm -rf *)",
      oldVersion: "missing",
      newVersion: version(added[0]!.store!),
    });
    expect((await add()).out).toMatch(/already present/);
    expect(await rows("entry.added")).toHaveLength(1);
  });

  it("without a running cockpit the write still succeeds (exit 0), and stderr says it has no audit row", async () => {
    delete process.env.COCKPIT_URL;
    delete process.env.COCKPIT_CLI_TOKEN;
    process.env.COCKPIT_DATA = path.join(sb.root, "no-cockpit-here");
    try {
      sb.write(".claude/settings.json", FIXTURES.claudeTabs);
      const [first] = await entries();
      const res = await cli("revoke", first!.id, "--workspace", sb.workspace);
      expect(res.code).toBe(0);
      expect(res.out).toContain("revoked in");
      expect(res.err).toBe("note: the cockpit is not running, so this change has no audit row\n");
      expect(await rows("entry.revoked")).toHaveLength(0);
    } finally {
      if (saved.COCKPIT_DATA === undefined) delete process.env.COCKPIT_DATA;
      else process.env.COCKPIT_DATA = saved.COCKPIT_DATA;
    }
  });

  it("records only what is on disk: a claimed allow the file does not hold, or a stale version, is refused and writes nothing", async () => {
    const file = sb.write(".claude/settings.json", '{"permissions": {"allow": []}}');
    const v = version(".claude/settings.json");
    const claim = {
      workspace: sb.workspace,
      change: "entry.added" as const,
      entryId: "forged",
      entryAction: "allow",
      rule: "Bash(*)",
      result: {
        store: file,
        scope: "workspace" as const,
        before: { version: v, line: 1, text: "" },
        after: { version: v, line: 1, text: '"Bash(*)"' },
      },
    };
    const call = (body: unknown) =>
      fetch("http://cockpit.test/api/local/store-writes", {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const forged = await call(claim);
    expect(forged.status).toBe(409);
    const stale = await call({
      ...claim,
      change: "entry.revoked",
      result: { ...claim.result, after: { ...claim.result.after, version: "0".repeat(64) } },
    });
    expect(stale.status).toBe(409);
    const elsewhere = await call({ ...claim, result: { ...claim.result, store: path.join(sb.root, "other.json") } });
    expect(elsewhere.status).toBe(422);
    expect(fs.readFileSync(file, "utf8")).toBe('{"permissions": {"allow": []}}');
    expect(await rows("entry.added")).toHaveLength(0);
    // It takes the owner's role (the CLI's): an admin of every workspace is refused.
    await expect(
      recordCliStoreWrite({
        db: opened.db,
        actor: personActor({ grants: [{ workspace: ALL_WORKSPACES, role: "admin" }] }),
        input: claim,
      }),
    ).rejects.toMatchObject({ status: 403 });
  });
});
