import { z } from "zod";
import { removeCollaborator, RoleGrant, updateCollaborator } from "@/lib/auth/invites";
import { route } from "@/lib/http/route";

const Params = z.object({ id: z.string().min(1).max(100) });

/** `{ roles: [{ workspace, role }] }` replaces the collaborator's roles; applies on their next request. */
export const PATCH = route(
  { access: "admin", person: true, params: Params, body: z.object({ roles: z.array(RoleGrant).max(200) }) },
  async ({ db, actor, params, body }) => ({
    collaborator: await updateCollaborator({ db, actor, input: { id: params.id, roles: body.roles } }),
  }),
);

/** Removes the collaborator: every session ends and open event streams close. */
export const DELETE = route({ access: "admin", person: true, params: Params }, async ({ db, actor, params }) =>
  removeCollaborator({ db, actor, input: { id: params.id } }),
);
