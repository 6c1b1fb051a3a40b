import { passkeyLoginOptions } from "@/lib/auth/passkeys";
import { route, tooMany } from "@/lib/http/route";
import { clientAddress, passkeyLimit } from "@/lib/http/throttle";

/** Sign-in with a passkey, step 1 (public): a challenge kept server-side, single use, 5 minutes. */
export const POST = route({ access: "public" }, async ({ req, db }) => {
  const wait = passkeyLimit.hit(`address:${clientAddress(req.headers)}`);
  if (wait > 0) return tooMany(wait);
  return passkeyLoginOptions({ db });
});
