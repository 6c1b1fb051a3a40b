import { createOwnerLoginLink } from "@/lib/auth/login-links";
import { env } from "@/lib/config/env";
import { publicBaseUrl } from "@/lib/http/base-url";
import { route } from "@/lib/http/route";

/** Mints a one-time owner login link (the CLI calls this with the local credential). */
export const POST = route({ access: "owner" }, async ({ req, db }) => {
  const link = await createOwnerLoginLink(db, { ttlSeconds: env().COCKPIT_LOGIN_TTL_SECONDS });
  const url = `${publicBaseUrl(req)}/login?token=${encodeURIComponent(link.token)}`;
  return { url, expiresAt: link.expiresAt.toISOString() };
});
