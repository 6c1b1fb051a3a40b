import { listSessions, ListSessionsInput } from "@/lib/auth/sessions";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** Open sessions (devices) of the caller, or of `?user=` for an admin over that person. */
export const GET = route({ access: "viewer", query: ListSessionsInput }, async ({ db, actor, query }) => ({
  sessions: await listSessions({ db, actor, input: query }),
}));
