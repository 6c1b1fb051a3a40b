import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { like } from "drizzle-orm";
import { auditEvents } from "@/db/schema";
import { NextRequest } from "next/server";
import { setServerDb } from "@/db/client";
import { agentTokens } from "@/db/schema";
import { hashToken } from "@/lib/auth/tokens";
import * as eventsRoute from "@/app/api/agent/v1/events/route";
import { admitCard } from "./admit-card";
import { recordToolUse } from "./record-tool-use";
import { settleCard } from "./settle-card";
import { bash, cardFixture, OWNER, type CardFixture } from "@/test/support/cards";

let f: CardFixture;
beforeAll(async () => {
  f = await cardFixture();
});
afterAll(async () => f.cleanup());

describe("recordToolUse", () => {
  it("writes an audit row per hook call, leaving out (not cutting) oversized input", async () => {
    await recordToolUse(f.opened.db, {
      actor: f.agent,
      workspaceId: f.workspaceId,
      agent: "claude-code",
      event: "PreToolUse",
      sessionId: "s1",
      tool: "Bash",
      input: { command: "npm test" },
    });
    await recordToolUse(f.opened.db, {
      actor: f.agent,
      workspaceId: f.workspaceId,
      agent: "claude-code",
      event: "PostToolUse",
      sessionId: "s1",
      tool: "Write",
      input: { file_path: "/x", content: "y".repeat(30_000) },
    });
    const rows = await f.opened.db
      .select()
      .from(auditEvents)
      .where(like(auditEvents.action, "agent.%"))
      .orderBy(auditEvents.seq);
    expect(rows.map((r) => r.action)).toEqual(["agent.pre_tool_use", "agent.post_tool_use"]);
    expect(rows[0]).toMatchObject({ agent: "claude-code", agentSessionId: "s1", tool: "Bash", actorChannel: "hook" });
    expect(rows[0]!.detail).toMatchObject({ agent: "claude-code", sessionId: "s1", tool: "Bash" });
    // The (sanitized) input has its own column now.
    expect(rows[0]!.input).toEqual({ command: "npm test" });
    expect(rows[1]!.detail).toMatchObject({ tool: "Write", inputTruncated: true });
    expect(rows[1]!.input).toBeNull();
  });

  it("records the decision the agent reached on PostToolUse, and its source", async () => {
    const post = (sessionId: string, command: string) =>
      recordToolUse(f.opened.db, {
        actor: f.agent,
        workspaceId: f.workspaceId,
        agent: "claude-code",
        event: "PostToolUse",
        sessionId,
        tool: "Bash",
        input: { command },
        toolUseId: "toolu_1",
        cwd: f.workspace,
        now: f.env.clock.now,
      });
    // No card: the agent's own rules or mode let it run.
    await post("s-config", "ls -la");
    // A person allowed "always": the card names user_permanent.
    const admitted = await admitCard({
      db: f.opened.db,
      actor: f.agent,
      workspaceId: f.workspaceId,
      input: bash("npm install left-pad", "s-card"),
      env: f.env,
    });
    if (admitted.status !== "pending") throw new Error(`expected a card, got ${admitted.status}`);
    await settleCard({
      db: f.opened.db,
      actor: OWNER,
      cardId: admitted.id,
      input: { outcome: "allow", remember: "once", hash: admitted.hash },
      client: "web",
      env: f.env,
    });
    await post("s-card", "npm install left-pad");
    const rows = await f.opened.db
      .select()
      .from(auditEvents)
      .where(like(auditEvents.action, "agent.post_tool_use"))
      .orderBy(auditEvents.seq);
    const [config, temporary] = rows.slice(-2);
    expect(config).toMatchObject({
      outcome: "allow",
      decisionSource: "config",
      toolUseId: "toolu_1",
      cwd: f.workspace,
    });
    expect(temporary).toMatchObject({ outcome: "allow", decisionSource: "user_temporary", target: admitted.id });
  });

  it("POST /api/agent/v1/events records other agents' decisions (agent token, validated body)", async () => {
    setServerDb(f.opened);
    const token = "cpa_record-tool-use-test-token-0123456789";
    await f.opened.db.insert(agentTokens).values({
      id: "tok-events",
      name: "codex",
      workspaceId: f.workspaceId,
      tokenHash: hashToken(token),
    });
    const send = (body: unknown, bearer: string | null = token) =>
      eventsRoute.POST(
        new NextRequest("http://localhost:3000/api/agent/v1/events", {
          method: "POST",
          headers: { "content-type": "application/json", ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
          body: JSON.stringify(body),
        }),
        { params: Promise.resolve({}) } as never,
      );
    const body = {
      agent: "codex",
      events: [
        {
          sessionId: "cx1",
          tool: "shell",
          input: { command: "rm -rf build" },
          outcome: "deny",
          source: "config",
          rule: "rm -rf *",
          store: ".codex/rules",
        },
        { kind: "post_tool_use", sessionId: "cx1", tool: "shell", input: { command: "ls" }, source: "user_temporary" },
      ],
    };
    expect((await send(body, null)).status).toBe(401);
    expect((await send({ ...body, events: [{ tool: "shell" }] })).status).toBe(400);
    expect((await send({ ...body, events: [{ ...body.events[0], outcome: "maybe" }] })).status).toBe(400);
    const res = await send(body);
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ recorded: 2 });
    const rows = await f.opened.db
      .select()
      .from(auditEvents)
      .where(like(auditEvents.agent, "codex"))
      .orderBy(auditEvents.seq);
    expect(rows.map((r) => [r.action, r.outcome, r.decisionSource])).toEqual([
      ["agent.decision", "deny", "config"],
      ["agent.post_tool_use", "allow", "user_temporary"],
    ]);
    expect(rows[0]).toMatchObject({
      rule: "rm -rf *",
      store: ".codex/rules",
      workspaceId: f.workspaceId,
      actor: "agent:codex",
    });
  });
});
