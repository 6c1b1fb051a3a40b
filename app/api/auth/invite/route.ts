import { acceptInvite, AcceptInviteInput } from "@/lib/auth/invites";
import { isHttps, sessionCookie, sessionTokenFrom } from "@/lib/auth/cookies";
import { clientAddress, inviteThrottle } from "@/lib/http/throttle";
import { json, route, tooMany } from "@/lib/http/route";

/**
 * Accepts an invite: `{ token, name }` → 200 and a session cookie on this device. Unknown, used and
 * expired tokens → 410; guessing is throttled per client key (lib/http/client-key.ts: the socket address,
 * or the trusted proxy's entry), 429 with Retry-After. As for login links, only failures count: a valid
 * invite always works, so guesses by someone sharing the key cannot lock an invited person out; and it does not reset
 * the count, so a guesser holding one valid invite cannot use it to start guessing afresh.
 */
export const POST = route({ access: "public", body: AcceptInviteInput }, async ({ req, db, body }) => {
  const client = clientAddress(req.headers);
  try {
    const session = await acceptInvite({
      db,
      input: body,
      userAgent: req.headers.get("user-agent"),
      previousToken: sessionTokenFrom(req.headers.get("cookie")),
    });
    const maxAge = Math.floor((session.expiresAt.getTime() - Date.now()) / 1000);
    return json({ ok: true, id: session.userId, name: session.name }, 200, {
      "set-cookie": sessionCookie(session.sessionToken, maxAge, isHttps(req.headers, req.url)),
      "referrer-policy": "no-referrer",
    });
  } catch (error) {
    const wait = inviteThrottle.check(client);
    inviteThrottle.fail(client);
    if (wait > 0) return tooMany(wait);
    throw error;
  }
});
