import { route } from "@/lib/http/route";
import { listRootSessions } from "@/lib/cards";

export const dynamic = "force-dynamic";

/** Root sessions with pending cards, a running absence deadline, or an absence hold. */
export const GET = route({ access: "viewer" }, async ({ db, actor }) => ({
  sessions: await listRootSessions({ db, actor }),
}));
