import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshPostgres } from "@/db/test-postgres";
import { notifyDeliveries } from "@/db/schema";
import { createEndpoint } from "./endpoints";
import { ADMIN, notifyFixture, startReceiver, type NotifyFixture, type Receiver } from "@/test/support/notify";
import { startNotifyWorker } from "./worker";

let pg: Awaited<ReturnType<typeof freshPostgres>>;
let f: NotifyFixture;
const receivers: Receiver[] = [];

beforeAll(async () => {
  pg = await freshPostgres();
  if (pg) f = await notifyFixture({ opened: pg });
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  if (pg) {
    await f.cleanup();
    await pg.drop();
  }
});

describe("outbox on Postgres with competing workers", () => {
  it("three workers sharing one database deliver each card exactly once per endpoint", async (ctx) => {
    if (!pg) return ctx.skip();
    for (let i = 0; i < 2; i++) receivers.push(await startReceiver(() => ({ status: 200, delayMs: 20 })));
    for (const r of receivers) await createEndpoint({ db: pg.db, actor: ADMIN, input: { url: r.url }, env: f.env });
    const workers = [0, 1, 2].map(() => startNotifyWorker({ db: pg!.db, env: f.env, pollMs: 25 }));
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await f.admit(`rm -rf pg-${i}`, `pg-${i % 3}`));
    // Long enough for a loaded machine (the suite runs beside others); it ends as soon as every request arrived.
    const deadline = Date.now() + 100_000;
    while (receivers.some((r) => r.requests.length < ids.length) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    await Promise.all(workers.map((w) => w.stop()));
    for (const r of receivers) {
      const seen = r.requests.map((q) => JSON.parse(q.body).data.card.id as string);
      expect(seen.length).toBe(ids.length);
      expect(new Set(seen).size).toBe(ids.length);
    }
    const rows = await pg.db.select().from(notifyDeliveries);
    expect(rows).toHaveLength(ids.length * 2);
    expect(rows.every((d) => d.status === "delivered" && d.attempts === 1)).toBe(true);
  });
});
