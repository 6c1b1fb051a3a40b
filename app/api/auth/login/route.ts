import { z } from "zod";
import { redeemLoginLink } from "@/lib/auth/login-links";
import { env } from "@/lib/config/env";
import { isHttps, sessionCookie, sessionTokenFrom } from "@/lib/http/cookies";
import { clientAddress, loginThrottle } from "@/lib/http/throttle";
import { json, route, tooMany } from "@/lib/http/route";

const LoginInput = z.object({ token: z.string().min(10).max(200) });

/** Exchanges a one-time login token for a session cookie. */
export const POST = route({ access: "public", body: LoginInput }, async ({ req, db, body }) => {
  const client = clientAddress(req.headers);
  const wait = loginThrottle.check(client);
  if (wait > 0) return tooMany(wait);
  try {
    const session = await redeemLoginLink(db, {
      token: body.token,
      sessionTtlHours: env().COCKPIT_SESSION_TTL_HOURS,
      userAgent: req.headers.get("user-agent"),
      previousToken: sessionTokenFrom(req.headers.get("cookie")),
    });
    loginThrottle.reset(client);
    const maxAge = Math.floor((session.expiresAt.getTime() - Date.now()) / 1000);
    return json({ ok: true }, 200, {
      "set-cookie": sessionCookie(session.sessionToken, maxAge, isHttps(req.headers, req.url)),
    });
  } catch (error) {
    loginThrottle.fail(client);
    throw error;
  }
});
