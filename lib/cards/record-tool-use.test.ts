import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { like } from "drizzle-orm";
import { auditEvents } from "@/db/schema";
import { recordToolUse } from "./record-tool-use";
import { cardFixture, type CardFixture } from "@/test/support/cards";

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
      event: "PreToolUse",
      sessionId: "s1",
      tool: "Bash",
      input: { command: "npm test" },
    });
    await recordToolUse(f.opened.db, {
      actor: f.agent,
      workspaceId: f.workspaceId,
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
});
