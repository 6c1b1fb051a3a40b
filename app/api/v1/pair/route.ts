import { createPairingLink } from "@/lib/auth/login-links";
import { publicBaseUrl } from "@/lib/config/base-url";
import { json, route } from "@/lib/http/route";

/** "Pair my phone": a single-use, 10-minute link that signs the owner in on another device. */
export const POST = route({ access: "owner", person: true }, async ({ db, actor }) => {
  const link = await createPairingLink({ db, actor });
  return json(
    {
      url: `${publicBaseUrl()}/login?token=${encodeURIComponent(link.token)}`,
      expiresAt: link.expiresAt.toISOString(),
    },
    201,
  );
});
