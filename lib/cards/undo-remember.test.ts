import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { auditEvents } from "@/db/schema";
import { roleEverywhere } from "@/test/support/auth";
import { admitCard, type AdmitCardInput } from "./admit-card";
import { settleCard } from "./settle-card";
import { undoRemember } from "./undo-remember";
import { bash, cardFixture, OWNER, type CardFixture } from "@/test/support/cards";

let f: CardFixture;
beforeAll(async () => {
  f = await cardFixture();
});
afterAll(async () => f.cleanup());

async function alwaysAllowed(input: AdmitCardInput, choice: "exact" | "subcommand" = "subcommand") {
  const r = await admitCard({ db: f.opened.db, actor: f.agent, workspaceId: f.workspaceId, input, env: f.env });
  if (r.status !== "pending") throw new Error(`expected a card, got ${r.status}`);
  const input2 = { outcome: "allow" as const, remember: "workspace" as const, hash: r.hash, choice };
  await settleCard({ db: f.opened.db, actor: OWNER, cardId: r.id, input: input2, client: "web", env: f.env });
  return r.id;
}
const undo = (cardId: string, actor = OWNER) => undoRemember({ db: f.opened.db, actor, cardId, env: f.env });
const allowList = () => JSON.parse(f.read(".claude/settings.local.json")).permissions.allow as string[];

describe("undo of Always allow", () => {
  it("revokes exactly the rules that answer wrote, audited, and only once", async () => {
    f.write(".claude/settings.local.json", JSON.stringify({ permissions: { allow: ["Bash(ls *)"] } }));
    const id = await alwaysAllowed(bash("kubectl delete pod web-1 --namespace prod", "undo"));
    expect(allowList()).toEqual(["Bash(ls *)", "Bash(kubectl delete *)"]);
    const done = await undo(id);
    expect(done.revoked).toEqual(["Bash(kubectl delete *)"]);
    expect(allowList()).toEqual(["Bash(ls *)"]);
    expect(done.card.status).toBe("allowed");
    expect(done.card.settlement?.saved?.undone).toMatchObject({ by: "alice" });
    const rows = await f.opened.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "entry.revoked"), eq(auditEvents.workspaceId, f.workspaceId)));
    expect(rows.map((r) => [r.rule, (r.detail as { undo?: { cardId: string } }).undo?.cardId])).toContainEqual([
      "Bash(kubectl delete *)",
      id,
    ]);
    // Undo goes through the Rules page's revoke-and-audit path: the row has the agent, the entry's action and the
    // file's version before and after; the version before is the one the answer's entry.added row left.
    const undone = rows.find((r) => (r.detail as { undo?: { cardId: string } }).undo?.cardId === id)!;
    const [added] = await f.opened.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "entry.added"), eq(auditEvents.rule, "Bash(kubectl delete *)")));
    const detail = undone.detail as { oldVersion: string; newVersion: string; entryAction: string };
    expect(undone).toMatchObject({ actor: "alice", agent: "claude-code", store: added!.store });
    expect(detail.entryAction).toBe("allow");
    expect(detail.oldVersion).toBe((added!.detail as { newVersion: string }).newVersion);
    expect(detail.newVersion).toMatch(/^[0-9a-f]{16,}$/);
    expect(detail.newVersion).not.toBe(detail.oldVersion);
    await expect(undo(id)).rejects.toMatchObject({ status: 409, message: expect.stringMatching(/already undone/) });
  });

  it("is offered to the person who answered, within the window", async () => {
    const id = await alwaysAllowed(bash("terraform plan -out x", "undo-2"));
    const other = roleEverywhere("approver", { userId: "u3", name: "bob", sessionId: "s3" });
    await expect(undo(id, other)).rejects.toMatchObject({ status: 403 });
    f.env.clock.now = new Date(f.env.clock.now.getTime() + 6 * 60_000);
    await expect(undo(id)).rejects.toMatchObject({ status: 409, message: expect.stringMatching(/5 minutes/) });
    expect(allowList()).toContain("Bash(terraform plan *)");
  });
});
