import { createInvite, CreateInviteInput, listInvites } from "@/lib/auth/invites";
import { publicBaseUrl } from "@/lib/config/base-url";
import { json, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** Open invites the caller could have made (admin). */
export const GET = route({ access: "admin", person: true }, async ({ db, actor }) => ({
  invites: await listInvites({ db, actor }),
}));

/** `{ role, workspaces, expiresInHours? }` → 201 `{ id, url }` (single use, ≤ 7 days; the link is shown once). */
export const POST = route({ access: "admin", person: true, body: CreateInviteInput }, async ({ db, actor, body }) => {
  const invite = await createInvite({ db, actor, input: body, baseUrl: publicBaseUrl() });
  return json({ id: invite.id, url: invite.url, expiresAt: invite.expiresAt }, 201);
});
