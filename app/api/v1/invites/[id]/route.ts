import { z } from "zod";
import { revokeInvite } from "@/lib/auth/revoke-invite";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** Revoke an open invite (admin of every workspace it grants): the link stops working at once. */
export const DELETE = route(
  { access: "admin", person: true, params: z.object({ id: z.string().min(1).max(100) }) },
  async ({ db, actor, params }) => revokeInvite({ db, actor, input: { id: params.id } }),
);
