import { me } from "@/lib/auth/invites";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** `{ id, name, owner, roles: [{ workspace, role }] }` for the caller. */
export const GET = route({ access: "viewer" }, async ({ actor }) => me(actor));
