import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshPostgres } from "@/db/test-postgres";
import { PG_CHANNEL, connectPgBus, subscribeCardChanges, type CardChange } from "./bus";

const pg = await freshPostgres();
afterAll(async () => pg?.drop());

describe.skipIf(!pg)("card bus over LISTEN/NOTIFY", () => {
  let stop: () => Promise<void>;
  beforeAll(async () => {
    stop = await connectPgBus(pg!.pgPool!);
  });
  afterAll(async () => {
    await stop?.();
  });

  it("delivers another process's notification to local subscribers, and skips its own", async () => {
    const seen: CardChange[] = [];
    const unsubscribe = subscribeCardChanges((c) => seen.push(c));
    const change = { type: "resolved", cardId: "c1", workspaceId: "w1", status: "allowed" };
    // Another server process: a different origin on the same channel.
    await pg!.pgPool!.query("select pg_notify($1, $2)", [
      PG_CHANNEL,
      JSON.stringify({ ...change, origin: "other-process" }),
    ]);
    await new Promise((r) => setTimeout(r, 300));
    expect(seen).toEqual([change]);
    unsubscribe();
  });
});

describe.skipIf(!pg)("exactly-once settlement on Postgres", () => {
  it("50 concurrent answers over a pooled connection: one wins, 49 get 409", async () => {
    const { admitCard } = await import("./admit-card");
    const { settleCard } = await import("./settle-card");
    const { cardFixture, bash, OWNER } = await import("@/test/support/cards");
    const f = await cardFixture({ opened: pg! });
    try {
      const c = await admitCard({
        db: f.opened.db,
        actor: f.agent,
        workspaceId: f.workspaceId,
        input: bash("npm install", "pg-race"),
        env: f.env,
      });
      if (c.status !== "pending") throw new Error("expected a card");
      const results = await Promise.allSettled(
        Array.from({ length: 50 }, () =>
          settleCard({
            db: f.opened.db,
            actor: OWNER,
            cardId: c.id,
            input: { outcome: "allow", remember: "once", hash: c.hash },
            client: "web",
            env: f.env,
          }),
        ),
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(rejected).toHaveLength(49);
      for (const r of rejected) expect(r.reason.message).toMatch(/^already settled by alice \(owner\) at /);
    } finally {
      await f.cleanup();
    }
  });
});
