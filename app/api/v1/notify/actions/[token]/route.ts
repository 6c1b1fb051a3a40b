import { z } from "zod";
import { PEOPLE_BODY_LIMIT, readBodyText } from "@/lib/http/body";
import { bodyRefusal, route } from "@/lib/http/route";
import { ActionClaim, useActionToken } from "@/lib/notify";

const Params = z.object({ token: z.string().regex(/^cna_[A-Za-z0-9_-]{43}$/, "not an action token") });

/**
 * The ntfy Approve/Deny button calls this from the phone app: no cookie, the token in the URL is the
 * capability (single use, bound to one card and one outcome). 409 when settled or reused, 403 on a
 * card/outcome mismatch, 410 when expired.
 */
export const POST = route({ access: "public", params: Params }, async ({ req, db, params }) => {
  let raw: unknown = {};
  const body = await readBodyText(req, PEOPLE_BODY_LIMIT);
  if (!body.ok) return bodyRefusal(body);
  const text = body.text;
  if (text.trim()) {
    try {
      raw = JSON.parse(text);
    } catch {
      raw = {};
    }
  }
  const claim = ActionClaim.parse(raw);
  const result = await useActionToken({ db, token: params.token, claim });
  return { status: result.card.status, card: result.card.id };
});
