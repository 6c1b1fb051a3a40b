import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { auditEvents, cardEvents } from "@/db/schema";
import { ABSENCE_REASON, setAbsenceTimeout } from "./absence";
import { admitCard, type AdmitCardInput } from "./admit-card";
import { expireAbsentQueues } from "./expire-absent-queues";
import { getCardUnchecked } from "./get-card";
import { settleCard } from "./settle-card";
import { bash, cardFixture, OWNER, type CardFixture } from "@/test/support/cards";
import { userMessage } from "./user-message";

let f: CardFixture;
beforeAll(async () => {
  f = await cardFixture();
});
afterAll(async () => f.cleanup());

const admit = (input: AdmitCardInput) =>
  admitCard({ db: f.opened.db, actor: f.agent, workspaceId: f.workspaceId, input, env: f.env });
async function card(input: AdmitCardInput) {
  const r = await admit(input);
  if (r.status !== "pending") throw new Error(`expected a card, got ${r.status}`);
  return r;
}
const advance = (seconds: number) => (f.env.clock.now = new Date(f.env.clock.now.getTime() + seconds * 1000));
const sweep = () => expireAbsentQueues({ db: f.opened.db, now: f.env.clock.now });

describe("absence timeout", () => {
  it("is off by default: nothing expires", async () => {
    const c = await card(bash("npm ci", "off"));
    advance(100_000);
    expect((await sweep()).cards).toEqual([]);
    expect((await getCardUnchecked(f.opened.db, c.id)).deadline).toBeNull();
  });

  it("expires a root session's whole queue together, holds the session, and refuses late answers", async () => {
    await setAbsenceTimeout({ db: f.opened.db, actor: OWNER, input: { timeoutSeconds: 60 } });
    const a = await card(bash("npm run deploy", "away"));
    advance(30);
    const b = await card({ ...bash("npm run migrate", "away-child"), rootSessionId: "away" });
    const other = await card(bash("npm run lint", "present"));
    const view = await getCardUnchecked(f.opened.db, b.id);
    // Siblings join the deadline the first card started.
    expect(view.deadline).toBe((await getCardUnchecked(f.opened.db, a.id)).deadline);
    advance(29);
    expect((await sweep()).cards).toEqual([]);
    advance(2);
    const swept = await sweep();
    expect(swept.cards.sort()).toEqual([a.id, b.id].sort());
    for (const id of [a.id, b.id]) {
      const v = await getCardUnchecked(f.opened.db, id);
      expect(v).toMatchObject({
        status: "expired",
        settlement: { outcome: "deny", message: ABSENCE_REASON, source: "expired", by: "expiry" },
      });
    }
    expect((await getCardUnchecked(f.opened.db, other.id)).status).toBe("pending");
    await expect(
      settleCard({
        db: f.opened.db,
        actor: OWNER,
        cardId: a.id,
        input: { outcome: "allow", remember: "once", hash: a.hash },
        client: "web",
        env: f.env,
      }),
    ).rejects.toThrow(/expired/);
    const events = await f.opened.db.select().from(cardEvents).where(eq(cardEvents.cardId, a.id));
    expect(events.map((e) => e.type)).toEqual(["enqueued", "expired"]);

    // Held: a new ask of that root session is denied at once, with no card.
    const held = await admit(bash("npm run deploy", "away"));
    expect(held).toEqual({
      status: "denied",
      decision: { decision: "deny", step: "absence-held", reason: ABSENCE_REASON, rule: null },
    });
    const heldAudit = await f.opened.db.select().from(auditEvents).where(eq(auditEvents.action, "card.expired"));
    expect(heldAudit.some((r) => (r.detail as { source?: string }).source === "absence-held")).toBe(true);
    // Allow rules still decide covered calls during the hold.
    f.write(".claude/settings.json", JSON.stringify({ permissions: { allow: ["Bash(git status)"] } }));
    expect((await admit(bash("git status", "away"))).status).toBe("coalesced");
    f.write(".claude/settings.json", "{}");

    // A user message ends the hold.
    expect(
      await userMessage({ db: f.opened.db, actor: f.agent, workspaceId: f.workspaceId, rootSessionId: "away" }),
    ).toEqual({ holdEnded: true });
    expect((await admit(bash("npm run deploy", "away"))).status).toBe("pending");
  });

  it("a human answer restarts the deadline for the rest of the queue", async () => {
    const first = await card(bash("npm run a", "restart"));
    const second = await card(bash("npm run b", "restart"));
    advance(50);
    await settleCard({
      db: f.opened.db,
      actor: OWNER,
      cardId: first.id,
      input: { outcome: "deny", remember: "once", hash: first.hash },
      client: "web",
      env: f.env,
    });
    advance(50);
    await sweep();
    expect((await getCardUnchecked(f.opened.db, second.id)).status).toBe("pending");
    advance(11);
    await sweep();
    expect((await getCardUnchecked(f.opened.db, second.id)).status).toBe("expired");
  });

  it("turning the timeout off clears deadlines and holds", async () => {
    const c = await card(bash("npm run c", "offagain"));
    await setAbsenceTimeout({ db: f.opened.db, actor: OWNER, input: { timeoutSeconds: null } });
    advance(1000);
    await sweep();
    expect((await getCardUnchecked(f.opened.db, c.id)).status).toBe("pending");
    expect((await admit(bash("npm run deploy", "restart"))).status).toBe("pending");
  });
});
