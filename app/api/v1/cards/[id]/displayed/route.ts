import { z } from "zod";
import { route } from "@/lib/http/route";
import { markDisplayed } from "@/lib/cards";

export const dynamic = "force-dynamic";

/** The card was shown to a person; only the first call is recorded. */
export const POST = route({ access: "viewer", params: z.object({ id: z.uuid() }) }, async ({ db, actor, params }) => ({
  recorded: await markDisplayed({ db, actor, cardId: params.id }),
}));
