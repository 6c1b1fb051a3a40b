/**
 * Issue 19 §1, the floor: when the agent itself asked (Claude Code's PermissionRequest), rules in the agent's own
 * files never settle the card as allow — only the cockpit's own authority does: a person's "allow for this session"
 * answer, or a rule a person saves through the cockpit while the card waits. Denies still deny. One test per path:
 * the generic agent API with `agentAsked: true` (here), the HTTP hook (app/api/agent/v1/hooks/[agent]/
 * floor.test.ts) and the command hook (lib/cli/verbs/hook.test.ts: it sends `agentAsked: true`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admitCard } from "./admit-card";
import { getCardUnchecked } from "./get-card";
import { settleCard } from "./settle-card";
import { bash, cardFixture, OWNER, type CardFixture } from "@/test/support/cards";

let f: CardFixture;
beforeAll(async () => {
  f = await cardFixture();
  f.write(
    ".claude/settings.json",
    JSON.stringify({ permissions: { allow: ["Bash(npm test)", "Bash(git status)"], deny: ["Bash(curl:*)"] } }),
  );
});
afterAll(async () => f.cleanup());

const admit = (input: Parameters<typeof admitCard>[0]["input"]) =>
  admitCard({ db: f.opened.db, actor: f.agent, workspaceId: f.workspaceId, input, env: f.env });

describe("the agent's own ask is a floor", () => {
  it("an allow rule the agent already saw does not settle its ask: a card waits, and says why", async () => {
    const asked = await admit({ ...bash("npm test", "floor-1"), agentAsked: true });
    expect(asked.status).toBe("pending");
    if (asked.status !== "pending") return;
    const view = await getCardUnchecked(f.opened.db, asked.id);
    expect(view.decision.reason).toMatch(/^Claude Code asked; no rule of the cockpit's may approve it/);
    // Without the flag (a PreToolUse-style client that did not ask) the same rule still decides.
    expect(await admit(bash("npm test", "floor-1"))).toMatchObject({
      status: "coalesced",
      decision: { decision: "allow" },
    });
  });

  it("a matching deny still denies", async () => {
    expect(await admit({ ...bash("curl https://x.example", "floor-2"), agentAsked: true })).toMatchObject({
      status: "coalesced",
      decision: { decision: "deny", rule: "Bash(curl:*)" },
    });
  });

  it("a person's 'allow for this session' in the cockpit settles the next identical ask", async () => {
    const first = await admit({ ...bash("make lint", "floor-3"), agentAsked: true });
    if (first.status !== "pending") throw new Error("expected a card");
    await settleCard({
      db: f.opened.db,
      actor: OWNER,
      cardId: first.id,
      input: { outcome: "allow", remember: "session", hash: first.hash },
      client: "web",
      env: f.env,
    });
    expect(await admit({ ...bash("make lint", "floor-3"), agentAsked: true })).toMatchObject({
      status: "coalesced",
      decision: { decision: "allow" },
    });
  });

  it("coalescing after an answer settles siblings only through the rule the person just saved", async () => {
    // Two waiting asks in one root session: one covered by a file rule the agent saw, one by the rule saved now.
    const seen = await admit({ ...bash("git status", "floor-4"), agentAsked: true });
    const a = await admit({ ...bash("make build", "floor-4"), agentAsked: true });
    const b = await admit({ ...bash("make build", "floor-4"), agentAsked: true });
    if (seen.status !== "pending" || a.status !== "pending" || b.status !== "pending") throw new Error("cards");
    const result = await settleCard({
      db: f.opened.db,
      actor: OWNER,
      cardId: a.id,
      input: { outcome: "allow", remember: "workspace", hash: a.hash },
      client: "web",
      env: f.env,
    });
    expect(result.coalesced).toEqual([b.id]);
    expect((await getCardUnchecked(f.opened.db, seen.id)).status).toBe("pending");
    expect((await getCardUnchecked(f.opened.db, b.id)).status).toBe("coalesced");
  });
});
