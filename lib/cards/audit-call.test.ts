import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asc, like } from "drizzle-orm";
import { auditEvents } from "@/db/schema";
import { AUDIT_EVENT_TYPES } from "@/lib/audit/events";
import { AuditPageQuery, listAuditEvents } from "@/lib/audit/query";
import { bash, cardFixture, OWNER, type CardFixture } from "@/test/support/cards";
import { abortCard } from "./abort-card";
import { setAbsenceTimeout } from "./absence";
import { admitCard, type AdmitCardInput } from "./admit-card";
import { expireAbsentQueues } from "./expire-absent-queues";
import { markDisplayed } from "./mark-displayed";
import { settleCard, type SettleCardInput } from "./settle-card";
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
const answer = (
  cardId: string,
  input: Omit<SettleCardInput, "remember"> & { remember?: SettleCardInput["remember"] },
) =>
  settleCard({
    db: f.opened.db,
    actor: OWNER,
    cardId,
    input: { remember: "once", ...input },
    client: "web",
    env: f.env,
  });
const advance = (seconds: number) => (f.env.clock.now = new Date(f.env.clock.now.getTime() + seconds * 1000));

/** The card.* audit row types lib/cards writes: `type: "card.x"` rows and the lifecycle events it records. */
function cardTypesWrittenInLibCards(): Set<string> {
  const dir = path.join(process.cwd(), "lib/cards");
  const types = new Set<string>();
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(".ts") || name.endsWith(".test.ts")) continue;
    const text = readFileSync(path.join(dir, name), "utf8");
    for (const m of text.matchAll(/\btype: "card\.([a-z_]+)"/g)) types.add(`card.${m[1]}`);
    // recordCardEvent({ type: "x" }) and settleOnce({ event: "x" }) write card.x.
    for (const m of text.matchAll(/\b(?:type|event): "(enqueued|displayed|resolved|coalesced|swept|expired|aborted)"/g))
      types.add(`card.${m[1]}`);
  }
  return types;
}

describe("card lifecycle audit rows carry the call", () => {
  it("finds who approved `terraform destroy -auto-approve` through the audit search", async () => {
    const c = await card(bash("terraform destroy -auto-approve", "tf"));
    await answer(c.id, { outcome: "allow", hash: c.hash });
    const query = AuditPageQuery.parse({ q: "terraform destroy -auto-approve", type: "card.resolved" });
    const { events } = await listAuditEvents(f.opened.db, OWNER, query);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: "card.resolved",
      target: c.id,
      actor: { label: "alice", role: "owner" },
      outcome: "allow",
      source: "user_temporary",
      tool: "Bash",
      input: { command: "terraform destroy -auto-approve" },
    });
    // Every lifecycle row of that card is found by the command, not just the answer.
    const all = await listAuditEvents(f.opened.db, OWNER, AuditPageQuery.parse({ q: "terraform destroy" }));
    expect(all.events.map((e) => e.type).sort()).toEqual(["card.enqueued", "card.resolved"]);
  });

  it("folds a long input as the card list does, and says how much it left out", async () => {
    const content = "x".repeat(50_000);
    const c = await card({
      agent: "claude-code",
      sessionId: "fold",
      tool: "WebFetch",
      input: { url: "https://example.com/", prompt: content },
    });
    await answer(c.id, { outcome: "deny", hash: c.hash });
    const rows = await f.opened.db.select().from(auditEvents).where(like(auditEvents.target, c.id));
    expect(rows.map((r) => r.action).sort()).toEqual(["card.enqueued", "card.resolved"]);
    for (const r of rows) {
      expect(r.input).toMatchObject({ url: "https://example.com/" });
      expect((r.input as { prompt: string }).prompt.length).toBeLessThan(2_100);
      expect((r.detail as { inputOmitted?: number }).inputOmitted).toBeGreaterThan(47_000);
    }
  });

  it("every card.* row type lib/cards writes has the tool and the input", async () => {
    // enqueued, displayed, resolved
    const a = await card(bash("npm run deploy", "life"));
    await markDisplayed({ db: f.opened.db, actor: OWNER, cardId: a.id });
    await answer(a.id, { outcome: "deny", hash: a.hash });
    // aborted
    const b = await card(bash("npm run release", "life"));
    await abortCard({ db: f.opened.db, actor: f.agent, cardId: b.id });
    // coalesced at admission (a rule decides) and a sibling coalesced by a session rule
    f.write(".claude/settings.json", JSON.stringify({ permissions: { allow: ["Bash(git status)"] } }));
    expect((await admit(bash("git status", "life"))).status).toBe("coalesced");
    f.write(".claude/settings.json", "{}");
    const head = await card(bash("cargo build --release", "sib"));
    await card(bash("cargo build --release", "sib"));
    const settled = await answer(head.id, {
      outcome: "allow",
      remember: "session",
      hash: head.hash,
      choice: "subcommand",
    });
    expect(settled.coalesced).toHaveLength(1);
    // rule_not_saved: the workspace store does not parse
    f.write(".claude/settings.local.json", "{ not json");
    const broken = await card(bash("kubectl apply -f x.yaml", "life"));
    const refused = await answer(broken.id, { outcome: "allow", remember: "workspace", hash: broken.hash });
    expect(refused.ruleNotSaved).toMatch(/not saved/);
    f.write(".claude/settings.local.json", "{}");
    // expired by the absence sweep, then at admission while the session is held
    await setAbsenceTimeout({ db: f.opened.db, actor: OWNER, input: { timeoutSeconds: 60 } });
    await card(bash("npm run migrate", "away"));
    advance(61);
    expect((await expireAbsentQueues({ db: f.opened.db, now: f.env.clock.now })).cards).toHaveLength(1);
    expect((await admit(bash("npm run seed", "away"))).status).toBe("denied");
    await userMessage({ db: f.opened.db, actor: f.agent, workspaceId: f.workspaceId, rootSessionId: "away" });
    await setAbsenceTimeout({ db: f.opened.db, actor: OWNER, input: { timeoutSeconds: null } });

    const rows = await f.opened.db
      .select()
      .from(auditEvents)
      .where(like(auditEvents.action, "card.%"))
      .orderBy(asc(auditEvents.seq));
    const written = cardTypesWrittenInLibCards();
    expect([...written].sort()).toEqual(
      AUDIT_EVENT_TYPES.filter((t) => t.startsWith("card.") && t !== "card.swept").sort(),
    );
    expect(new Set(rows.map((r) => r.action))).toEqual(written);
    for (const r of rows) {
      expect(r.tool, `${r.action} seq ${r.seq}`).toEqual(expect.any(String));
      expect(r.input, `${r.action} seq ${r.seq}`).toEqual(expect.objectContaining({}));
      expect(Object.keys(r.input as object).length, `${r.action} seq ${r.seq}`).toBeGreaterThan(0);
    }
  });
});
