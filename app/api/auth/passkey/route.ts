import { z } from "zod";
import { openSession } from "@/lib/auth/sessions";
import { PasskeyAssertion, verifyPasskeyLogin } from "@/lib/auth/passkeys";
import { isHttps, sessionCookie, sessionTokenFrom } from "@/lib/auth/cookies";
import { json, route, tooMany } from "@/lib/http/route";
import { clientAddress, loginThrottle } from "@/lib/http/throttle";

/** Sign-in with a passkey, step 2 (public): a valid assertion → 200 and a new session cookie. */
export const POST = route(
  { access: "public", body: z.object({ response: PasskeyAssertion }) },
  async ({ req, db, body }) => {
    const client = clientAddress(req.headers);
    const wait = loginThrottle.check(client);
    if (wait > 0) return tooMany(wait);
    try {
      const { userId } = await verifyPasskeyLogin(db, { assertion: body.response });
      const session = await db.transaction((tx) =>
        openSession(tx, {
          userId,
          signIn: "passkey",
          userAgent: req.headers.get("user-agent"),
          previousToken: sessionTokenFrom(req.headers.get("cookie")),
        }),
      );
      loginThrottle.reset(client);
      const maxAge = Math.floor((session.expiresAt.getTime() - Date.now()) / 1000);
      return json({ ok: true }, 200, {
        "set-cookie": sessionCookie(session.sessionToken, maxAge, isHttps(req.headers, req.url)),
      });
    } catch (error) {
      loginThrottle.fail(client);
      throw error;
    }
  },
);
