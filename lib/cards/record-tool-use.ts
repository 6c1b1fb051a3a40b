import type { DbOrTx } from "@/db/client";
import { auditActor, inTransaction, recordAudit } from "@/lib/audit";
import type { Actor } from "@/lib/auth/actor";

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
  await inTransaction(db, (tx) =>
    recordAudit(tx, {
      type: event === "PreToolUse" ? "agent.pre_tool_use" : "agent.post_tool_use",
      actor: auditActor(actor, { channel: "hook" }),
      workspaceId,
      agent: "claude-code",
      agentSessionId: sessionId,
      tool,
      input: fits ? input : null,
      detail: { agent: "claude-code", sessionId, tool, ...(fits ? {} : { inputTruncated: true }) },
    }),
  );
}
