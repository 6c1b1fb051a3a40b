import { createOwnerLoginLink } from "@/lib/auth/login-links";
import { env } from "@/lib/config/env";
import { publicBaseUrl } from "@/lib/config/base-url";
import { ForbiddenError } from "@/lib/errors";
import { route } from "@/lib/http/route";

/**
 * Mints a one-time owner login link (the CLI calls this with the data folder's credential). The developer credential
 * a dedicated-user deployment hands to the developer's user (docs/deploy.md) mints none.
 */
export const POST = route({ access: "owner" }, async ({ req, db, actor }) => {
  if (actor.kind === "local" && actor.developer)
    throw new ForbiddenError(
      "the developer credential cannot mint login links: the owner runs `cockpit login-link` as the cockpit's own user",
    );
  const link = await createOwnerLoginLink(db, { ttlSeconds: env().COCKPIT_LOGIN_TTL_SECONDS });
  const url = `${publicBaseUrl(req)}/login?token=${encodeURIComponent(link.token)}`;
  return { url, expiresAt: link.expiresAt.toISOString() };
});
