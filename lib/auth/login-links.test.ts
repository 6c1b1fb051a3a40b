import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { openDb, type OpenedDb } from "@/db/client";
import { createOwnerLoginLink, redeemLoginLink } from "./login-links";
import { LOCAL_CLI } from "@/test/support/auth";
import { actorFromSessionToken, endSession } from "./sessions";
import { hashToken } from "./tokens";

let opened: OpenedDb;
beforeAll(async () => {
  opened = await openDb({ kind: "embedded" });
});
afterAll(async () => opened.close());

describe("owner login links", () => {
  it("stores only the hash and works exactly once", async () => {
    const link = await createOwnerLoginLink({ db: opened.db, actor: LOCAL_CLI, input: { ttlSeconds: 60 } });
    const dump = JSON.stringify(await opened.db.execute(sql`select * from login_tokens`));
    expect(dump).not.toContain(link.token);
    expect(dump).toContain(hashToken(link.token));
    const session = await redeemLoginLink(opened.db, { token: link.token, sessionTtlHours: 1 });
    await expect(redeemLoginLink(opened.db, { token: link.token, sessionTtlHours: 1 })).rejects.toThrow(/already used/);
    expect(await actorFromSessionToken(opened.db, session.sessionToken)).toMatchObject({ kind: "user", owner: true });
  });
  it("refuses unknown and expired tokens and ends sessions server-side", async () => {
    await expect(redeemLoginLink(opened.db, { token: "cpl_doesnotexist", sessionTtlHours: 1 })).rejects.toThrow(
      /invalid/,
    );
    const expired = await createOwnerLoginLink({ db: opened.db, actor: LOCAL_CLI, input: { ttlSeconds: -5 } });
    await expect(redeemLoginLink(opened.db, { token: expired.token, sessionTtlHours: 1 })).rejects.toThrow(/expired/);
    const link = await createOwnerLoginLink({ db: opened.db, actor: LOCAL_CLI, input: { ttlSeconds: 60 } });
    const session = await redeemLoginLink(opened.db, { token: link.token, sessionTtlHours: 1 });
    await endSession({
      db: opened.db,
      actor: { kind: "local", name: "local-cli" },
      input: { sessionId: session.sessionId },
    });
    expect(await actorFromSessionToken(opened.db, session.sessionToken)).toBeNull();
  });
});
