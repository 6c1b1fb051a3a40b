import { z } from "zod";
import { ConflictError } from "@/lib/errors";
import { json, route, tooMany } from "@/lib/http/route";
import { answerLimit, clientAddress } from "@/lib/http/throttle";
import { SettleCardInput, settleCard } from "@/lib/cards";

export const dynamic = "force-dynamic";

const Body = SettleCardInput.extend({ client: z.enum(["web", "ntfy", "push", "cli"]).default("web") });

/** A human answer: 200 with the settled card, 409 `{ error, card }` when someone else won or the card changed. */
export const POST = route(
  { access: "approver", params: z.object({ id: z.uuid() }), body: Body },
  async ({ req, db, actor, params, body }) => {
    // Per person and per client address: a flood of answers gets 429 with Retry-After.
    const who = actor.kind === "user" ? actor.userId : actor.name;
    const wait = Math.max(answerLimit.hit(`person:${who}`), answerLimit.hit(`address:${clientAddress(req.headers)}`));
    if (wait > 0) return tooMany(wait);
    const { client, ...input } = body;
    try {
      const result = await settleCard({ db, actor, cardId: params.id, input, client });
      return {
        card: result.card,
        coalesced: result.coalesced,
        ...(result.ruleNotSaved ? { ruleNotSaved: result.ruleNotSaved } : {}),
      };
    } catch (error) {
      if (error instanceof ConflictError)
        return json(
          { error: error.message, card: (error.details as { card?: unknown } | undefined)?.card ?? null },
          409,
        );
      throw error;
    }
  },
);
