import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { auditEvents, cardEvents } from "@/db/schema";
import { admitCard } from "./admit-card";
import { getCardUnchecked } from "./get-card";
import { listCards } from "./list-cards";
import { settleCard } from "./settle-card";
import { bash, cardFixture, OWNER, type CardFixture } from "@/test/support/cards";

let f: CardFixture;
beforeAll(async () => {
  f = await cardFixture();
  f.write(
    ".claude/settings.json",
    JSON.stringify({ permissions: { allow: ["Bash(npm test)"], deny: ["Bash(curl:*)"] } }),
  );
});
afterAll(async () => f.cleanup());

const admit = (input: Parameters<typeof admitCard>[0]["input"]) =>
  admitCard({ db: f.opened.db, actor: f.agent, workspaceId: f.workspaceId, input, env: f.env });

describe("admission", () => {
  it("coalesces calls the current allow and deny rules decide: no card, no enqueued event, an audit row", async () => {
    const allowed = await admit(bash("npm test"));
    expect(allowed).toMatchObject({ status: "coalesced", decision: { decision: "allow", rule: "Bash(npm test)" } });
    const denied = await admit(bash("curl https://example.com"));
    expect(denied).toMatchObject({ status: "coalesced", decision: { decision: "deny", rule: "Bash(curl:*)" } });
    expect(await listCards({ db: f.opened.db, actor: OWNER, input: { status: "all", limit: 100 } })).toHaveLength(0);
    expect(await f.opened.db.select().from(cardEvents)).toHaveLength(0);
    const audit = await f.opened.db.select().from(auditEvents).where(eq(auditEvents.action, "card.decided_by_rules"));
    expect(audit).toHaveLength(2);
  });

  it("admits an ask as a pending card with the full request, warnings, cause and remember rules", async () => {
    const big = "echo " + "x".repeat(50 * 1024);
    const long = await admit(
      bash(big, "sess-big", { reason: "need it", originPath: "/root/worker/verifier", mode: "acceptEdits" }),
    );
    expect(long.status).toBe("pending");
    if (long.status !== "pending") return;
    const view = await getCardUnchecked(f.opened.db, long.id);
    expect((view.input as { command: string }).command).toBe(big);
    expect(view).toMatchObject({
      status: "pending",
      originPath: "/root/worker/verifier",
      reason: "need it",
      modeBase: "accept-edits",
      rootSessionId: "sess-big",
      sessionId: "sess-big",
    });
    expect(view.hash).toMatch(/^[0-9a-f]{64}$/);

    const rm = await admit(bash("rm -rf dist"));
    if (rm.status !== "pending") throw new Error("expected a card");
    const rmView = await getCardUnchecked(f.opened.db, rm.id);
    expect(rmView.warnings).toContain("dangerous command");
    // A dangerous command is only ever remembered exactly: one choice.
    expect(rmView.remember).toEqual({
      session: ["Bash(rm -rf dist)"],
      workspace: ["Bash(rm -rf dist)"],
      workspaceStore: ".claude/settings.local.json",
      options: [
        {
          level: "exact",
          label: "this exact command",
          rules: ["Bash(rm -rf dist)"],
          verdict: { severity: "ok", notes: [] },
        },
      ],
    });

    const compound = await admit(bash("git push && npm publish"));
    if (compound.status !== "pending") throw new Error("expected a card");
    const compoundView = await getCardUnchecked(f.opened.db, compound.id);
    expect(compoundView.remember.session).toEqual(["Bash(git push)", "Bash(npm publish)"]);
    expect(compoundView.remember.options?.map((o) => [o.level, o.rules])).toEqual([
      ["exact", ["Bash(git push)", "Bash(npm publish)"]],
      ["subcommand", ["Bash(git push *)", "Bash(npm publish *)"]],
      ["program", ["Bash(git *)", "Bash(npm publish *)"]],
    ]);

    const mcp = await admit({
      agent: "claude-code",
      sessionId: "sess-1",
      tool: "mcp__github__create_issue",
      input: { title: "t" },
    });
    if (mcp.status !== "pending") throw new Error("expected a card");
    expect((await getCardUnchecked(f.opened.db, mcp.id)).remember.workspace).toEqual(["mcp__github__create_issue"]);

    const env = await admit({
      agent: "claude-code",
      sessionId: "sess-1",
      tool: "Edit",
      input: { file_path: `${f.workspace}/.env`, old_string: "a", new_string: "b" },
    });
    if (env.status !== "pending") throw new Error("expected a card");
    const envView = await getCardUnchecked(f.opened.db, env.id);
    expect(envView).toMatchObject({
      safetyCheck: true,
      cause: "protected-resource",
      remember: { session: [], workspace: [], workspaceStore: null },
    });
    expect(envView.warnings).toContain("protected path");

    const events = await f.opened.db.select().from(cardEvents).where(eq(cardEvents.cardId, rm.id));
    expect(events.map((e) => e.type)).toEqual(["enqueued"]);
    const pending = await listCards({ db: f.opened.db, actor: OWNER, input: { status: "pending", limit: 100 } });
    expect(pending.map((c) => c.id)).toEqual([long.id, rm.id, compound.id, mcp.id, env.id]);
  });

  it("coalesces a later call covered by a session rule an earlier answer added", async () => {
    const first = await admit(bash("make build", "sess-rule"));
    if (first.status !== "pending") throw new Error("expected a card");
    await settleCard({
      db: f.opened.db,
      actor: OWNER,
      cardId: first.id,
      input: { outcome: "allow", remember: "session", hash: first.hash, choice: "subcommand" },
      client: "web",
      env: f.env,
    });
    expect(await admit(bash("make build -j4", "sess-rule"))).toMatchObject({
      status: "coalesced",
      decision: { decision: "allow", rule: "Bash(make build *)" },
    });
    // The remembered rule keeps the build tool's target: another target still asks.
    expect((await admit(bash("make deploy", "sess-rule"))).status).toBe("pending");
    // Another session does not inherit it.
    expect((await admit(bash("make build -j4", "sess-other"))).status).toBe("pending");
  });

  it("never settles a call the agent put to a person through a mode heuristic; denies still stand", async () => {
    const credential = `${f.home}/.local/share/permissions-cockpit/local-credential.json`;
    const cases = [
      bash(`cat ${credential}`, "heur"),
      bash("git log --oneline", "heur"),
      bash("npm publish", "heur", { mode: "bypassPermissions" }),
      {
        agent: "claude-code" as const,
        sessionId: "heur",
        mode: "acceptEdits",
        tool: "Edit",
        input: { file_path: `${f.workspace}/src/a.ts`, old_string: "a", new_string: "b" },
      },
      { agent: "claude-code" as const, sessionId: "heur", tool: "Read", input: { file_path: `${f.workspace}/a.ts` } },
    ];
    for (const input of cases) {
      const r = await admit(input);
      expect(r.status, JSON.stringify(input)).toBe("pending");
      if (r.status !== "pending") continue;
      const view = await getCardUnchecked(f.opened.db, r.id);
      expect(view.status).toBe("pending");
    }
    // A deny (rule or dont-ask) still settles at once.
    expect(await admit(bash("curl https://x.example", "heur"))).toMatchObject({ decision: { decision: "deny" } });
    expect(await admit(bash("npm publish", "heur", { mode: "dontAsk" }))).toMatchObject({
      status: "coalesced",
      decision: { decision: "deny" },
    });
    // An explicit allow rule still does.
    expect(await admit(bash("npm test", "heur"))).toMatchObject({
      decision: { decision: "allow", step: "allow-rule" },
    });
  });

  it("a Command Code card warns that Command Code may still ask after an allow (its hook docs do not say otherwise)", async () => {
    const cc = await admit({
      agent: "commandcode",
      sessionId: "cc1",
      tool: "shell_command",
      input: { command: "npm publish" },
    });
    if (cc.status !== "pending") throw new Error("expected a card");
    expect((await getCardUnchecked(f.opened.db, cc.id)).warnings).toContain("agent may still ask");
    const claude = await admit(bash("npm publish", "cc2"));
    if (claude.status !== "pending") throw new Error("expected a card");
    expect((await getCardUnchecked(f.opened.db, claude.id)).warnings).not.toContain("agent may still ask");
  });

  it("refuses a token of another workspace", async () => {
    const stranger = { kind: "agent" as const, tokenId: "t2", workspaceId: "elsewhere", name: "x" };
    await expect(
      admitCard({ db: f.opened.db, actor: stranger, workspaceId: f.workspaceId, input: bash("ls -la /"), env: f.env }),
    ).rejects.toThrow(/another workspace/);
  });
});
