import { z } from "zod";
import { route } from "@/lib/http/route";
import { getCard } from "@/lib/cards";

export const dynamic = "force-dynamic";

export const GET = route({ access: "viewer", params: z.object({ id: z.uuid() }) }, async ({ db, actor, params }) => ({
  card: await getCard(db, { actor, cardId: params.id }),
}));
