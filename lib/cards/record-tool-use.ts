import type { DbOrTx } from "@/db/client";
import { auditEvents } from "@/db/schema";
import { actorLabel, type Actor } from "@/lib/auth/actor";

const AUDIT_INPUT_LIMIT = 20_000;

/** Records a PreToolUse/PostToolUse hook call in the audit log; inputs over 20,000 characters are left out, not cut. */
export async function recordToolUse(
  db: DbOrTx,
  {
    actor,
    workspaceId,
    event,
    sessionId,
    tool,
    input,
  }: {
    actor: Actor;
    workspaceId: string;
    event: "PreToolUse" | "PostToolUse";
    sessionId: string;
    tool: string | null;
    input: Record<string, unknown>;
  },
): Promise<void> {
  const fits = JSON.stringify(input).length <= AUDIT_INPUT_LIMIT;
  await db.insert(auditEvents).values({
    actor: actorLabel(actor),
    action: `agent.${event === "PreToolUse" ? "pre_tool_use" : "post_tool_use"}`,
    workspaceId,
    detail: { agent: "claude-code", sessionId, tool, ...(fits ? { input } : { inputTruncated: true }) },
  });
}
