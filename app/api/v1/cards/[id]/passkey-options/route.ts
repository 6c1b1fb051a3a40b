import { z } from "zod";
import { requireCan } from "@/lib/auth/access";
import { approvalAssertionOptions } from "@/lib/auth/passkeys";
import { getCardRow } from "@/lib/cards";
import { route, tooMany } from "@/lib/http/route";
import { clientAddress, passkeyLimit } from "@/lib/http/throttle";

/**
 * Assertion options for answering this card with a passkey: a server-random, single-use challenge bound to
 * this person, the card (id and hash), the outcome and the remember scope, so the signature covers exactly that answer.
 */
export const POST = route(
  {
    access: "approver",
    person: true,
    params: z.object({ id: z.uuid() }),
    body: z.object({
      outcome: z.enum(["allow", "deny"]),
      remember: z.enum(["once", "session", "workspace"]).default("once"),
    }),
  },
  async ({ req, db, actor, params, body }) => {
    const who = actor.kind === "user" ? actor.userId : actor.name;
    const wait = Math.max(passkeyLimit.hit(`person:${who}`), passkeyLimit.hit(`address:${clientAddress(req.headers)}`));
    if (wait > 0) return tooMany(wait);
    const card = await getCardRow(db, { actor, cardId: params.id });
    requireCan(actor, "card.answer", card.workspaceId);
    return approvalAssertionOptions({ db, actor, input: { cardId: card.id, cardHash: card.hash, ...body } });
  },
);
