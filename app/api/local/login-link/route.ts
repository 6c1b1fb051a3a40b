import { createOwnerLoginLink } from "@/lib/auth/login-links";
import { env } from "@/lib/config/env";
import { publicBaseUrl } from "@/lib/config/base-url";
import { route } from "@/lib/http/route";

/**
 * Mints a one-time owner login link (the CLI calls this with the data folder's credential). The developer credential
 * a dedicated-user deployment hands to the developer's user (docs/deploy.md) mints none (the verb refuses it).
 */
export const POST = route({ access: "owner" }, async ({ req, db, actor }) => {
  const link = await createOwnerLoginLink({ db, actor, input: { ttlSeconds: env().COCKPIT_LOGIN_TTL_SECONDS } });
  const url = `${publicBaseUrl(req)}/login?token=${encodeURIComponent(link.token)}`;
  return { url, expiresAt: link.expiresAt.toISOString() };
});
