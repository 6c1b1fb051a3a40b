import { z } from "zod";
import { redeemLoginLink } from "@/lib/auth/login-links";
import { env } from "@/lib/config/env";
import { isHttps, sessionCookie } from "@/lib/http/cookies";
import { loginThrottle } from "@/lib/http/throttle";
import { errorResponse, json, route } from "@/lib/http/route";

const LoginInput = z.object({ token: z.string().min(10).max(200) });

/** Exchanges a one-time login token for a session cookie. */
export const POST = route({ access: "public", body: LoginInput }, async ({ req, db, body }) => {
  const client = req.headers.get("x-forwarded-for")?.split(",")[0]?.trim() ?? "local";
  const wait = loginThrottle.check(client);
  if (wait > 0) return errorResponse(429, `too many attempts; try again in ${Math.ceil(wait / 1000)} s`, undefined);
  try {
    const session = await redeemLoginLink(db, {
      token: body.token,
      sessionTtlHours: env().COCKPIT_SESSION_TTL_HOURS,
      userAgent: req.headers.get("user-agent"),
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
