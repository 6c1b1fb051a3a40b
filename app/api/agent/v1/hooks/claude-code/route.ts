import { z } from "zod";
import { json, route } from "@/lib/http/route";
import { abortCard, admitCard, userMessage, waitForSettlement } from "@/lib/cards";
import { recordToolUse } from "@/lib/cards/record-tool-use";
import { claudeHookShape, denyOutput, hookOutputFor, allowOutput, originPathOf } from "@/lib/agents/claude-code/hook";

export const dynamic = "force-dynamic";

const ClaudeHookPayload = z.looseObject(claudeHookShape);
const Query = z.object({ wait: z.coerce.number().min(1).max(600).default(590) });

/**
 * Claude Code's `"type": "http"` hook. PermissionRequest: admit the card and hold the request until it
 * settles, answering Claude Code's hook JSON; `{}` on timeout (the terminal prompt decides). If the
 * connection closes first, the card settles `aborted`. UserPromptSubmit ends an absence hold;
 * PreToolUse/PostToolUse are recorded in the audit log.
 */
export const POST = route(
  { access: "agent", body: ClaudeHookPayload, query: Query },
  async ({ req, db, actor, body, query }) => {
    if (actor.kind !== "agent") throw new Error("unreachable: agent access");
    const event = body.hook_event_name;
    if (event === "UserPromptSubmit") {
      await userMessage({ db, actor, workspaceId: actor.workspaceId, rootSessionId: body.session_id });
      return json({});
    }
    if (event === "PreToolUse" || event === "PostToolUse") {
      await recordToolUse(db, {
        actor,
        workspaceId: actor.workspaceId,
        event,
        sessionId: body.session_id,
        tool: body.tool_name ?? null,
        input: body.tool_input ?? {},
        toolUseId: typeof body.tool_use_id === "string" ? body.tool_use_id.slice(0, 300) : null,
        cwd: body.cwd ?? null,
      });
      return json({});
    }
    if (event !== "PermissionRequest" || !body.tool_name) return json({});

    const admitted = await admitCard({
      db,
      actor,
      workspaceId: actor.workspaceId,
      input: {
        agent: "claude-code",
        sessionId: body.session_id,
        originPath: originPathOf(body),
        cwd: body.cwd,
        mode: body.permission_mode,
        tool: body.tool_name,
        input: body.tool_input ?? {},
        // Claude Code fires PermissionRequest only when it decided to ask: its own rules never turn that into allow.
        agentAsked: true,
      },
    });
    if (admitted.status !== "pending")
      return json(admitted.decision.decision === "allow" ? allowOutput() : denyOutput(admitted.decision.reason));
    const outcome = await waitForSettlement({
      db,
      actor,
      cardId: admitted.id,
      waitSeconds: query.wait,
      signal: req.signal,
    });
    if (outcome.status === "pending") {
      // The hook gives up (timeout or closed connection): the terminal prompt takes over.
      await abortCard({ db, actor, cardId: admitted.id });
      return json({});
    }
    return json(hookOutputFor(outcome));
  },
);
