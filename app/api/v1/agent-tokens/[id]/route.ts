import { z } from "zod";
import { revokeAgentToken } from "@/lib/auth/agent-tokens";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const DELETE = route(
  { access: "admin", params: z.object({ id: z.string().min(1).max(100) }) },
  async ({ db, actor, params }) => {
    await revokeAgentToken({ db, actor, input: { id: params.id } });
    return { id: params.id, revoked: true };
  },
);
