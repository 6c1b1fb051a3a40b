import { z } from "zod";
import { route } from "@/lib/http/route";
import { undoRemember, UndoRememberInput } from "@/lib/cards/undo-remember";

export const dynamic = "force-dynamic";

/**
 * Undo of "Always allow" (a few minutes after answering, by the person who answered): revokes the rules that answer
 * wrote, each audited as `entry.revoked`. 200 `{card, revoked}`; 409 when there is nothing (left) to undo or the
 * window has passed; 403 for anyone else.
 */
export const POST = route(
  { access: "approver", person: true, params: z.object({ id: z.uuid() }), body: UndoRememberInput },
  async ({ db, actor, params }) => undoRemember({ db, actor, cardId: params.id }),
);
