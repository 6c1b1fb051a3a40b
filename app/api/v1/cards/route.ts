import { route } from "@/lib/http/route";
import { ListCardsInput, listCards } from "@/lib/cards";

export const dynamic = "force-dynamic";

/** Cards for the queue view: pending oldest first; settled or all newest first. */
export const GET = route({ access: "viewer", query: ListCardsInput }, async ({ db, actor, query }) => ({
  cards: await listCards({ db, actor, input: query }),
}));
