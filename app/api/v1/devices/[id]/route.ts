import { z } from "zod";
import { endSession } from "@/lib/auth/sessions";
import { route } from "@/lib/http/route";

/** Ends one session: your own, or anyone's you administer. */
export const DELETE = route(
  { access: "viewer", params: z.object({ id: z.string().min(1).max(100) }) },
  async ({ db, actor, params }) => endSession({ db, actor, input: { sessionId: params.id } }),
);
