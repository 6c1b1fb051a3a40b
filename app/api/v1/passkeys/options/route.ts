import { passkeyRegistrationOptions } from "@/lib/auth/passkeys";
import { route, tooMany } from "@/lib/http/route";
import { clientAddress, passkeyLimit } from "@/lib/http/throttle";

/** Registration options; the challenge is kept server-side for 5 minutes and used once. */
export const POST = route({ access: "viewer", person: true }, async ({ req, db, actor }) => {
  const who = actor.kind === "user" ? actor.userId : actor.name;
  const wait = Math.max(passkeyLimit.hit(`person:${who}`), passkeyLimit.hit(`address:${clientAddress(req.headers)}`));
  if (wait > 0) return tooMany(wait);
  return passkeyRegistrationOptions({ db, actor });
});
