import { z } from "zod";
import { route } from "@/lib/http/route";
import { userMessage } from "@/lib/cards";

export const dynamic = "force-dynamic";

/** Ends an absence hold from the cockpit side (as if the user had written to the agent). */
export const POST = route(
  {
    access: "admin",
    params: z.object({ rootSessionId: z.string().min(1).max(300) }),
    body: z.object({ workspace: z.string().min(1).max(200) }),
  },
  async ({ db, actor, params, body }) =>
    userMessage({ db, actor, workspaceId: body.workspace, rootSessionId: params.rootSessionId }),
);
