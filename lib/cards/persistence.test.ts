import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { EventEmitter } from "node:events";
import { afterAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { openDb } from "@/db/client";
import { cardEvents } from "@/db/schema";
import { admitCard } from "./admit-card";
import { subscribeCardChanges, type CardChange } from "./bus";
import { markDisplayed } from "./mark-displayed";
import { settleCard } from "./settle-card";
import { bash, cardFixture, OWNER } from "@/test/support/cards";
import { waitForSettlement } from "./wait-for-settlement";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "cards-pgdata-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Long-polls waiting on this process's card bus (each subscribes while it waits). */
const waitingPolls = (): number => {
  const bus = (globalThis as Record<symbol, { emitter: EventEmitter } | undefined>)[
    Symbol.for("permissions-cockpit.card-bus")
  ];
  return bus?.emitter.listenerCount("change") ?? 0;
};

// Embedded databases (two on disk, opened and closed in turn): seconds of CPU each, far more on a loaded machine.
describe("persistence and long-polls", { timeout: 180_000 }, () => {
  it("keeps a pending card across a restart; a new long-poll still receives the answer", async () => {
    const f = await cardFixture({ dataDir });
    const admitted = await admitCard({
      db: f.opened.db,
      actor: f.agent,
      workspaceId: f.workspaceId,
      input: bash("npm install", "restart"),
      env: f.env,
    });
    if (admitted.status !== "pending") throw new Error("expected a card");
    // The first long-poll is cut off by the "crash".
    const controller = new AbortController();
    const firstPoll = waitForSettlement({
      db: f.opened.db,
      actor: f.agent,
      cardId: admitted.id,
      waitSeconds: 30,
      signal: controller.signal,
    });
    controller.abort();
    expect((await firstPoll).status).toBe("pending");
    await f.opened.close();

    const reopened = await openDb({ kind: "embedded", dataDir });
    try {
      const before = waitingPolls();
      // The whole test's time: the answer must reach this poll while it waits, however slow the machine.
      const poll = waitForSettlement({ db: reopened.db, actor: f.agent, cardId: admitted.id, waitSeconds: 180 });
      // Settle only once the poll has read the card as pending and waits on the bus (no guessed delay).
      await vi.waitFor(() => expect(waitingPolls()).toBe(before + 1), { timeout: 60_000, interval: 10 });
      await settleCard({
        db: reopened.db,
        actor: OWNER,
        cardId: admitted.id,
        input: { outcome: "allow", remember: "once", hash: admitted.hash },
        client: "cli",
        env: f.env,
      });
      const outcome = await poll;
      expect(outcome).toMatchObject({
        id: admitted.id,
        status: "allowed",
        settlement: { outcome: "allow", by: "alice", via: "cli" },
      });
    } finally {
      await reopened.close();
    }
  });

  it("a long-poll times out with the card still pending", async () => {
    const f = await cardFixture();
    try {
      const admitted = await admitCard({
        db: f.opened.db,
        actor: f.agent,
        workspaceId: f.workspaceId,
        input: bash("npm install", "timeout"),
        env: f.env,
      });
      if (admitted.status !== "pending") throw new Error("expected a card");
      const started = Date.now();
      expect(
        (await waitForSettlement({ db: f.opened.db, actor: f.agent, cardId: admitted.id, waitSeconds: 0.3 })).status,
      ).toBe("pending");
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      // Another workspace's token cannot read it.
      const stranger = { kind: "agent" as const, tokenId: "x", workspaceId: "other", name: "x" };
      await expect(
        waitForSettlement({ db: f.opened.db, actor: stranger, cardId: admitted.id, waitSeconds: 0 }),
      ).rejects.toMatchObject({ status: 404 });
    } finally {
      await f.cleanup();
    }
  });

  it("records displayed once and publishes every change on the bus", async () => {
    const f = await cardFixture();
    const seen: CardChange[] = [];
    const stop = subscribeCardChanges((c) => seen.push(c));
    try {
      const admitted = await admitCard({
        db: f.opened.db,
        actor: f.agent,
        workspaceId: f.workspaceId,
        input: bash("npm install", "shown"),
        env: f.env,
      });
      if (admitted.status !== "pending") throw new Error("expected a card");
      expect(await markDisplayed({ db: f.opened.db, actor: OWNER, cardId: admitted.id })).toBe(true);
      expect(await markDisplayed({ db: f.opened.db, actor: OWNER, cardId: admitted.id })).toBe(false);
      await settleCard({
        db: f.opened.db,
        actor: OWNER,
        cardId: admitted.id,
        input: { outcome: "deny", remember: "once", hash: admitted.hash },
        client: "web",
        env: f.env,
      });
      const events = await f.opened.db.select().from(cardEvents).where(eq(cardEvents.cardId, admitted.id));
      expect(events.map((e) => e.type)).toEqual(["enqueued", "displayed", "resolved"]);
      expect(seen.filter((c) => c.cardId === admitted.id).map((c) => [c.type, c.status])).toEqual([
        ["enqueued", "pending"],
        ["displayed", "pending"],
        ["resolved", "denied"],
      ]);
    } finally {
      stop();
      await f.cleanup();
    }
  });
});
