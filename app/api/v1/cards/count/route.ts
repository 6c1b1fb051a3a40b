import { z } from "zod";
import { countPendingCards } from "@/lib/cards/count-pending-cards";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** `{ pending }`: the number of cards waiting for a person, for badges that need no card bodies. */
export const GET = route(
  { access: "viewer", query: z.object({ workspace: z.string().min(1).max(200).optional() }) },
  async ({ db, actor, query }) => ({
    pending: await countPendingCards({ db, actor, input: { workspaceId: query.workspace } }),
  }),
);
