import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOwnerLoginLink, redeemLoginLink } from "@/lib/auth/login-links";
import { LOCAL_CLI } from "@/test/support/auth";
import { actorFromSessionToken, endSession } from "@/lib/auth/sessions";
import { addWorkspace, listWorkspaces, removeWorkspace } from "@/lib/workspaces/workspaces";
import { migrationStatus } from "./client";
import { freshPostgres } from "./test-postgres";

const pg = await freshPostgres();
if (!pg) console.warn("Postgres suite skipped: DATABASE_URL is not set (CI sets it; see .ci/run)");

describe.runIf(pg)("database layer on PostgreSQL", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "cockpit-pg-"));
  });
  afterAll(async () => {
    await pg!.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("applies the committed migrations", async () => {
    expect(pg!.kind).toBe("postgres");
    const status = await migrationStatus(pg!.db);
    expect(status).toMatchObject({ current: true });
    expect(status.applied).toBe(status.committed);
  });

  it("redeems a login link exactly once under concurrent use", async () => {
    const link = await createOwnerLoginLink({ db: pg!.db, actor: LOCAL_CLI, input: { ttlSeconds: 60 } });
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, () => redeemLoginLink(pg!.db, { token: link.token, sessionTtlHours: 1 })),
    );
    const won = results.filter((r) => r.status === "fulfilled");
    expect(won).toHaveLength(1);
    const session = (won[0] as PromiseFulfilledResult<{ sessionToken: string; sessionId: string }>).value;
    const actor = await actorFromSessionToken(pg!.db, session.sessionToken);
    expect(actor).toMatchObject({ kind: "user", owner: true });
    await endSession({
      db: pg!.db,
      actor: { kind: "local", name: "local-cli" },
      input: { sessionId: session.sessionId },
    });
    expect(await actorFromSessionToken(pg!.db, session.sessionToken)).toBeNull();
  });

  it("refuses an expired link", async () => {
    const link = await createOwnerLoginLink({ db: pg!.db, actor: LOCAL_CLI, input: { ttlSeconds: -1 } });
    await expect(redeemLoginLink(pg!.db, { token: link.token, sessionTtlHours: 1 })).rejects.toThrow(
      /expired or already used/,
    );
  });

  it("adds, lists and removes workspaces", async () => {
    const ws = await addWorkspace({
      db: pg!.db,
      actor: { kind: "local", name: "local-cli" } as const,
      input: { path: dir },
    });
    expect((await listWorkspaces(pg!.db)).map((w) => w.path)).toContain(fs.realpathSync(dir));
    await removeWorkspace({
      db: pg!.db,
      actor: { kind: "local", name: "local-cli" } as const,
      input: { idOrPath: ws.id },
    });
    expect(await listWorkspaces(pg!.db)).toHaveLength(0);
  });
});
