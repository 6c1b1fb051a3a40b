// "When remembering" (issue 14): Always allow does not append a rule an existing allow already covers.
import { writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { cards } from "@/db/schema";
import { admitCard, type AdmitCardInput } from "./admit-card";
import { getCardUnchecked } from "./get-card";
import { listCards } from "./list-cards";
import { settleCard } from "./settle-card";
import { bash, cardFixture, OWNER, type CardFixture } from "@/test/support/cards";

let f: CardFixture;
beforeAll(async () => {
  f = await cardFixture();
  f.write(".claude/settings.json", JSON.stringify({ permissions: { allow: ["Bash(npm run:*)"] } }));
  mkdirSync(path.join(f.home, ".claude"), { recursive: true });
  writeFileSync(
    path.join(f.home, ".claude/settings.json"),
    JSON.stringify({ permissions: { allow: ["Bash(make:*)"] } }),
  );
});
afterAll(async () => f.cleanup());

async function card(input: AdmitCardInput) {
  const r = await admitCard({ db: f.opened.db, actor: f.agent, workspaceId: f.workspaceId, input, env: f.env });
  if (r.status !== "pending") throw new Error(`expected a card, got ${r.status}`);
  return r;
}
const always = (cardId: string, hash: string) =>
  settleCard({
    db: f.opened.db,
    actor: OWNER,
    cardId,
    input: { outcome: "allow", remember: "workspace", hash },
    client: "web",
    env: f.env,
  });

describe("remember.coveredBy on a card", () => {
  it("names the existing allow (workspace or home store) that covers each proposed rule", async () => {
    // The agent asked about the whole command; `curl` is what no rule allows.
    const c = await card(bash("npm run build && make dist && curl https://example.com"));
    const view = await getCardUnchecked(f.opened.db, c.id);
    // The default is the narrowest choice: the exact commands.
    expect(view.remember.workspace).toEqual([
      "Bash(npm run build)",
      "Bash(make dist)",
      "Bash(curl https://example.com)",
    ]);
    expect(view.remember.coveredBy).toEqual([
      { rule: "Bash(npm run:*)", store: ".claude/settings.json", scope: "workspace" },
      { rule: "Bash(make:*)", store: "~/.claude/settings.json", scope: "global" },
      null,
    ]);
    // Each choice carries its own coverage: the sub-command level is covered the same way.
    const sub = view.remember.options?.find((o) => o.level === "subcommand");
    expect(sub?.rules).toEqual(["Bash(npm run build *)", "Bash(make dist *)", "Bash(curl https://example.com)"]);
    expect(sub?.coveredBy).toEqual(view.remember.coveredBy);
    const [listed] = await listCards({ db: f.opened.db, actor: OWNER, input: { status: "pending", limit: 10 } });
    expect(listed!.remember.coveredBy).toEqual(view.remember.coveredBy);
    // The hash was taken with what the card shows: answering with it works, and only the new rule is written.
    await always(c.id, view.hash);
    const local = JSON.parse(f.read(".claude/settings.local.json"));
    expect(local.permissions.allow).toEqual(["Bash(curl https://example.com)"]);
  });

  it("carries nothing when no allow covers the proposed rules (the card hash content is unchanged)", async () => {
    const c = await card(bash("terraform apply", "plain"));
    const view = await getCardUnchecked(f.opened.db, c.id);
    expect(view.remember.workspace).toEqual(["Bash(terraform apply)"]);
    expect("coveredBy" in view.remember).toBe(false);
    expect(view.remember.options?.some((o) => "coveredBy" in o)).toBe(false);
  });

  it("refuses an Always allow that would only repeat covered rules; allow once still works", async () => {
    const c = await card(bash("terraform plan", "all-covered"));
    await f.opened.db
      .update(cards)
      .set({
        remember: {
          session: ["Bash(npm run build *)"],
          workspace: ["Bash(npm run build *)"],
          workspaceStore: ".claude/settings.local.json",
          coveredBy: [{ rule: "Bash(npm run:*)", store: ".claude/settings.json", scope: "workspace" }],
        },
      })
      .where(eq(cards.id, c.id));
    await expect(always(c.id, c.hash)).rejects.toMatchObject({
      status: 422,
      message: expect.stringMatching(/already allowed by Bash\(npm run:\*\) in \.claude\/settings\.json/),
    });
    const once = await settleCard({
      db: f.opened.db,
      actor: OWNER,
      cardId: c.id,
      input: { outcome: "allow", remember: "once", hash: c.hash },
      client: "web",
      env: f.env,
    });
    expect(once.card.status).toBe("allowed");
  });
});
