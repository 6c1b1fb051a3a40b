import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admitCard } from "./admit-card";
import { announceShutdown } from "./bus";
import { getCardUnchecked } from "./get-card";
import { bash, cardFixture, type CardFixture } from "@/test/support/cards";
import { MAX_WAIT_SECONDS, waitForSettlement } from "./wait-for-settlement";

let f: CardFixture;
beforeAll(async () => {
  f = await cardFixture();
});
afterAll(async () => {
  // The flag is process-wide; put it back for any later suite in this worker.
  const bus = (globalThis as Record<symbol, { down?: boolean } | undefined>)[
    Symbol.for("permissions-cockpit.card-bus")
  ];
  if (bus) bus.down = false;
  await f?.cleanup();
});

describe("server shutdown", () => {
  it("releases waiting long-polls with the card still pending, so hooks reconnect to the next server", async () => {
    const admitted = await admitCard({
      db: f.opened.db,
      actor: f.agent,
      workspaceId: f.workspaceId,
      input: bash("npm install", "shutdown"),
      env: f.env,
    });
    if (admitted.status !== "pending") throw new Error("expected a card");
    // The longest wait there is: only the shutdown can end this poll within the test's time.
    const poll = waitForSettlement({
      db: f.opened.db,
      actor: f.agent,
      cardId: admitted.id,
      waitSeconds: MAX_WAIT_SECONDS,
    });
    await new Promise((r) => setTimeout(r, 50));
    announceShutdown();
    expect((await poll).status).toBe("pending");
    expect((await getCardUnchecked(f.opened.db, admitted.id)).status).toBe("pending");
  });
});
