import { z } from "zod";
import { redeemLoginLink } from "@/lib/auth/login-links";
import { env } from "@/lib/config/env";
import { clientKey } from "@/lib/http/client-key";
import { isHttps, sessionCookie, sessionTokenFrom } from "@/lib/auth/cookies";
import { loginThrottle } from "@/lib/http/throttle";
import { json, route, tooMany } from "@/lib/http/route";

const LoginInput = z.object({ token: z.string().min(10).max(200) });

/**
 * Exchanges a one-time login token for a session cookie. The throttle counts failures only: a valid, unexpired,
 * unused token always signs in, even while the client's key is locked out, so failed guesses (by anyone sharing
 * that key) can never lock the owner out of a fresh link. A success does not reset the count (a guesser with one valid link does
 * not get a fresh allowance).
 */
export const POST = route({ access: "public", body: LoginInput }, async ({ req, db, body }) => {
  const client = clientKey(req.headers, env().COCKPIT_TRUST_PROXY);
  try {
    const session = await redeemLoginLink(db, {
      token: body.token,
      sessionTtlHours: env().COCKPIT_SESSION_TTL_HOURS,
      userAgent: req.headers.get("user-agent"),
      previousToken: sessionTokenFrom(req.headers.get("cookie")),
    });
    const maxAge = Math.floor((session.expiresAt.getTime() - Date.now()) / 1000);
    return json({ ok: true }, 200, {
      "set-cookie": sessionCookie(session.sessionToken, maxAge, isHttps(req.headers, req.url)),
    });
  } catch (error) {
    const wait = loginThrottle.check(client);
    loginThrottle.fail(client);
    if (wait > 0) {
      return tooMany(wait);
    }
    throw error;
  }
});
