import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cardEvents, notifyDeliveries, notifyOutboxMarks, webhookEndpoints, workspaces } from "@/db/schema";
import { createEndpoint } from "./endpoints";
import { fanOut, notifyTypeOf } from "./fan-out";
import { ADMIN, notifyFixture, startReceiver, type NotifyFixture, type Receiver } from "@/test/support/notify";

let f: NotifyFixture;
let r: Receiver;
beforeAll(async () => {
  f = await notifyFixture();
  r = await startReceiver();
});
afterAll(async () => {
  await r.close();
  await f.cleanup();
});

describe("outbox fan-out", () => {
  it("maps card events to notification events", () => {
    expect(notifyTypeOf("enqueued")).toBe("card.admitted");
    for (const t of ["resolved", "coalesced", "swept", "aborted"] as const)
      expect(notifyTypeOf(t)).toBe("card.settled");
    expect(notifyTypeOf("expired")).toBe("card.expired");
    expect(notifyTypeOf("displayed")).toBeNull();
  });

  it("creates one delivery per event and matching endpoint, even when fan-outs race; skips stale and other-workspace events", async () => {
    const other = crypto.randomUUID();
    await f.opened.db.insert(workspaces).values({ id: other, path: `${f.workspace}-other`, name: "other" });
    const all = await createEndpoint({
      db: f.opened.db,
      actor: ADMIN,
      input: { url: r.url, events: ["card.admitted", "card.settled"] },
      env: f.env,
    });
    const scoped = await createEndpoint({
      db: f.opened.db,
      actor: ADMIN,
      input: { url: r.url, workspace: other },
      env: f.env,
    });
    await createEndpoint({ db: f.opened.db, actor: ADMIN, input: { url: r.url, enabled: false }, env: f.env });

    const card = await f.admit("rm -rf out");
    // Rows written directly, as lib/cards would: a display (no notification), a settlement, and a stale admission.
    await f.opened.db.insert(cardEvents).values([
      { cardId: card, workspaceId: f.workspaceId, type: "displayed", actor: "alice" },
      { cardId: card, workspaceId: f.workspaceId, type: "resolved", actor: "alice" },
      {
        cardId: card,
        workspaceId: f.workspaceId,
        type: "enqueued",
        actor: "agent",
        at: new Date(Date.now() - 2 * 3600 * 1000),
      },
    ]);
    const counts = await Promise.all([
      fanOut(f.opened.db, f.env),
      fanOut(f.opened.db, f.env),
      fanOut(f.opened.db, f.env),
    ]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(2);
    expect(await fanOut(f.opened.db, f.env)).toBe(0);
    const rows = await f.opened.db.select().from(notifyDeliveries);
    expect(rows.map((d) => [d.endpointId, d.eventType]).sort()).toEqual([
      [all.endpoint.id, "card.admitted"],
      [all.endpoint.id, "card.settled"],
    ]);
    expect(rows.some((d) => d.endpointId === scoped.endpoint.id)).toBe(false);
    // The stale event is the newest seq and older than the settle window: the cursor moved past all four.
    expect(await f.opened.db.select().from(notifyOutboxMarks)).toHaveLength(0);
    // An endpoint added later does not receive events that were already fanned out.
    await createEndpoint({ db: f.opened.db, actor: ADMIN, input: { url: r.url }, env: f.env });
    expect(await fanOut(f.opened.db, f.env)).toBe(0);
    expect((await f.opened.db.select().from(webhookEndpoints)).length).toBe(4);
  });

  it("moves the cursor past settled history and forgets those marks", async () => {
    await f.admit("rm -rf again");
    await fanOut(f.opened.db, f.env);
    expect(await f.opened.db.select().from(notifyOutboxMarks)).toHaveLength(1);
    const later = { ...f.env, now: () => new Date(Date.now() + 11 * 60 * 1000) };
    await fanOut(f.opened.db, later);
    expect(await f.opened.db.select().from(notifyOutboxMarks)).toHaveLength(0);
    expect(await fanOut(f.opened.db, later)).toBe(0);
  });
});
