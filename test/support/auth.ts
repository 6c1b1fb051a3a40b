/** Test fixture: a signed-in owner session, as the browser would send it (cookie + same-origin Origin). */
import type { Db } from "@/db/client";
import { PLAIN_COOKIE } from "@/lib/http/cookies";
import { createOwnerLoginLink, redeemLoginLink } from "@/lib/auth/login-links";

export async function personHeaders(db: Db, origin = "http://localhost:3000"): Promise<Record<string, string>> {
  const link = await createOwnerLoginLink(db, { ttlSeconds: 60 });
  const session = await redeemLoginLink(db, { token: link.token, sessionTtlHours: 1 });
  return { cookie: `${PLAIN_COOKIE}=${session.sessionToken}`, origin };
}
