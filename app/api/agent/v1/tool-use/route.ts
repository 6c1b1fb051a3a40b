import { z } from "zod";
import { json, route } from "@/lib/http/route";
import { recordToolUse } from "@/lib/cards/record-tool-use";

export const dynamic = "force-dynamic";

const ToolUse = z.object({
  agent: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, "an agent id from the catalogue"),
  phase: z.enum(["pre", "post"]),
  sessionId: z.string().min(1).max(300),
  tool: z.string().max(300).nullable(),
  input: z.record(z.string(), z.unknown()),
  toolUseId: z.string().max(300).nullish(),
  cwd: z.string().max(4096).nullish(),
});

/**
 * A tool call a command hook saw an agent run or about to run (`cockpit hook <agent>`, PreToolUse/PostToolUse):
 * recorded in the audit log as the HTTP hook records it, with the decision the agent reached on `post`.
 */
export const POST = route({ access: "agent", body: ToolUse }, async ({ db, actor, body }) => {
  if (actor.kind !== "agent") throw new Error("unreachable: agent access");
  await recordToolUse(db, {
    actor,
    workspaceId: actor.workspaceId,
    agent: body.agent,
    event: body.phase === "pre" ? "PreToolUse" : "PostToolUse",
    sessionId: body.sessionId,
    tool: body.tool,
    input: body.input,
    toolUseId: body.toolUseId ?? null,
    cwd: body.cwd ?? null,
  });
  return json({});
});
