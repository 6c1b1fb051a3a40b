import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { cardEvents, notifyDeliveries } from "@/db/schema";
import { createEndpoint } from "./endpoints";
import { fanOut } from "./fan-out";
import { ADMIN, notifyFixture, startReceiver } from "@/test/support/notify";
import { startNotifyWorker } from "./worker";

const root = mkdtempSync(path.join(os.tmpdir(), "notify-restart-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("restart", () => {
  // Two embedded databases on disk, opened and closed in turn: seconds of CPU, far more on a loaded machine.
  it(
    "resumes undelivered messages after the database is closed and reopened, without duplicates",
    { timeout: 180_000 },
    async () => {
      const dataDir = path.join(root, "pgdata");
      let answers = [503];
      const r = await startReceiver(() => ({ status: answers.shift() ?? 200 }));
      const clock = { now: new Date(Date.now() + 5000) };
      const env = {
        envAllowHosts: [],
        publicUrl: "https://cockpit.example",
        now: () => clock.now,
        schedule: [60],
        random: () => 0.5,
      };
      const f = await notifyFixture({ dataDir, root, env });
      // Opening a PGlite folder takes seconds: start the fake clock after it, ahead of the admissions.
      clock.now = new Date(Date.now() + 5000);
      await createEndpoint({ db: f.opened.db, actor: ADMIN, input: { url: r.url }, env });

      // Card 1: first attempt failed, retry scheduled. Card 2: fanned out, not attempted. Card 3: admitted only.
      const c1 = await f.admit("rm -rf one", "s1");
      // Admissions stamp real time: the fake clock must be past card 1's even when the admission took seconds.
      clock.now = new Date(Math.max(clock.now.getTime(), Date.now() + 5000));
      const w = startNotifyWorker({ db: f.opened.db, env, pollMs: 0 });
      await w.tick();
      await w.stop();
      const c2 = await f.admit("rm -rf two", "s2");
      await fanOut(f.opened.db, env);
      const c3 = await f.admit("rm -rf three", "s3");
      expect(r.requests).toHaveLength(1);
      await f.opened.close();

      const reopened = await openDb({ kind: "embedded", dataDir });
      try {
        expect((await reopened.db.select().from(notifyDeliveries)).map((d) => d.status).sort()).toEqual([
          "pending",
          "pending",
        ]);
        clock.now = new Date(clock.now.getTime() + 61_000);
        const w2 = startNotifyWorker({ db: reopened.db, env, pollMs: 0 });
        await w2.tick();
        await w2.idle();
        await w2.tick();
        await w2.stop();
        const ids = r.requests.map((q) => JSON.parse(q.body).data.card.id);
        expect(ids.slice(1).sort()).toEqual([c1, c2, c3].sort());
        expect(ids.filter((id) => id === c1)).toHaveLength(2);
        const rows = await reopened.db.select().from(notifyDeliveries);
        expect(rows.map((d) => d.status)).toEqual(["delivered", "delivered", "delivered"]);
        expect(
          new Set(r.requests.filter((q) => JSON.parse(q.body).data.card.id === c1).map((q) => q.headers["webhook-id"]))
            .size,
        ).toBe(1);
        expect((await reopened.db.select().from(cardEvents)).length).toBe(3);
      } finally {
        await reopened.close();
        await r.close();
        answers = [];
      }
    },
  );
});
