import { z } from "zod";
import { route } from "@/lib/http/route";
import { abortCard, waitForSettlement } from "@/lib/cards";

export const dynamic = "force-dynamic";

const Params = z.object({ id: z.uuid() });
const Query = z.object({ wait: z.coerce.number().min(0).max(300).default(0) });

/** Long-poll: answers as soon as the card settles or after `wait` seconds; a client that leaves changes nothing. */
export const GET = route({ access: "agent", params: Params, query: Query }, async ({ req, db, actor, params, query }) =>
  waitForSettlement({ db, actor, cardId: params.id, waitSeconds: query.wait, signal: req.signal }),
);

/** The agent side gave up or the terminal answered first: the card settles `aborted`. */
export const DELETE = route({ access: "agent", params: Params }, async ({ db, actor, params }) => {
  const aborted = await abortCard({ db, actor, cardId: params.id });
  return { id: params.id, aborted };
});
