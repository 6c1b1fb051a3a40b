import { z } from "zod";
import { PasskeyAssertion, stepUp, stepUpOptions } from "@/lib/auth/passkeys";
import { route, tooMany } from "@/lib/http/route";
import { clientAddress, passkeyLimit } from "@/lib/http/throttle";

/**
 * Step-up: `{}` → assertion options; `{ response }` → confirms this session for five minutes, which
 * changing roles, adding webhooks and writing a tool-wide allow rule require of a passkey holder.
 */
export const POST = route(
  { access: "viewer", person: true, body: z.object({ response: PasskeyAssertion.optional() }) },
  async ({ req, db, actor, body }) => {
    const who = actor.kind === "user" ? actor.userId : actor.name;
    const wait = Math.max(passkeyLimit.hit(`person:${who}`), passkeyLimit.hit(`address:${clientAddress(req.headers)}`));
    if (wait > 0) return tooMany(wait);
    return body.response ? stepUp({ db, actor, input: { response: body.response } }) : stepUpOptions({ db, actor });
  },
);
