import { endSession } from "@/lib/auth/sessions";
import { clearedSessionCookies, isHttps } from "@/lib/auth/cookies";
import { route } from "@/lib/http/route";

/** Ends the caller's session server-side and clears the cookie. */
export const POST = route({ access: "viewer" }, async ({ req, db, actor }) => {
  if (actor.kind === "user") await endSession({ db, actor, input: { sessionId: actor.sessionId } });
  const headers = new Headers({ "cache-control": "no-store", "content-type": "application/json" });
  for (const cookie of clearedSessionCookies(isHttps(req.headers, req.url))) headers.append("set-cookie", cookie);
  return new Response(JSON.stringify({ ok: true }), { status: 200, headers });
});
