import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admitCard } from "./admit-card";
import { countPendingCards } from "./count-pending-cards";
import { settleCard } from "./settle-card";
import { bash, cardFixture, OWNER, type CardFixture } from "@/test/support/cards";

let f: CardFixture;
beforeAll(async () => {
  f = await cardFixture();
});
afterAll(async () => f.cleanup());

describe("countPendingCards", () => {
  it("counts only cards waiting for a person, per workspace or in all", async () => {
    expect(await countPendingCards({ db: f.opened.db, actor: OWNER })).toBe(0);
    const admit = (command: string) =>
      admitCard({
        db: f.opened.db,
        actor: f.agent,
        workspaceId: f.workspaceId,
        input: bash(command, "count"),
        env: f.env,
      });
    const a = await admit("make one");
    await admit("make two");
    expect(await countPendingCards({ db: f.opened.db, actor: OWNER })).toBe(2);
    expect(await countPendingCards({ db: f.opened.db, actor: OWNER, input: { workspaceId: f.workspaceId } })).toBe(2);
    expect(await countPendingCards({ db: f.opened.db, actor: OWNER, input: { workspaceId: "another" } })).toBe(0);
    if (a.status !== "pending") throw new Error("expected a card");
    await settleCard({
      db: f.opened.db,
      actor: OWNER,
      cardId: a.id,
      input: { outcome: "deny", remember: "once", hash: a.hash },
      client: "web",
      env: f.env,
    });
    expect(await countPendingCards({ db: f.opened.db, actor: OWNER })).toBe(1);
  });
});
