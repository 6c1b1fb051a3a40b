import { z } from "zod";
import { route } from "@/lib/http/route";
import { userMessage } from "@/lib/cards";

export const dynamic = "force-dynamic";

/** The user wrote to the agent again: ends the root session's absence hold. */
export const POST = route(
  { access: "agent", params: z.object({ sessionId: z.string().min(1).max(300) }) },
  async ({ db, actor, params }) => {
    if (actor.kind !== "agent") throw new Error("unreachable: agent access");
    return userMessage({ db, actor, workspaceId: actor.workspaceId, rootSessionId: params.sessionId });
  },
);
