import { z } from "zod";
import { ConflictError } from "@/lib/errors";
import { json, route, tooMany } from "@/lib/http/route";
import { answerLimit, clientAddress } from "@/lib/http/throttle";
import { SettleCardInput, settleCard } from "@/lib/cards";

export const dynamic = "force-dynamic";

/**
 * A person's answer from the web app (desktop, phone, or a push notification that opened it): the channel is
 * "web", set by this route (the audit row adds the session's web/phone channel); a `client` field in the body is
 * ignored. Approvals in passkey-required workspaces carry a passkey assertion. Only a person's session may answer (403
 * for the CLI credential and agent tokens). 200 with the settled card, 409 `{ error, code, card }` when someone
 * else won or the card changed.
 */
export const POST = route(
  { access: "approver", person: true, params: z.object({ id: z.uuid() }), body: SettleCardInput },
  async ({ req, db, actor, params, body }) => {
    // Per person and per client address: a flood of answers gets 429 with Retry-After.
    const who = actor.kind === "user" ? actor.userId : actor.name;
    const wait = Math.max(answerLimit.hit(`person:${who}`), answerLimit.hit(`address:${clientAddress(req.headers)}`));
    if (wait > 0) return tooMany(wait);
    try {
      const result = await settleCard({ db, actor, cardId: params.id, input: body, client: "web" });
      return {
        card: result.card,
        coalesced: result.coalesced,
        ...(result.ruleNotSaved ? { ruleNotSaved: result.ruleNotSaved } : {}),
      };
    } catch (error) {
      if (error instanceof ConflictError)
        return json(
          {
            error: error.message,
            code: error.code,
            card: (error.details as { card?: unknown } | undefined)?.card ?? null,
          },
          409,
        );
      throw error;
    }
  },
);
