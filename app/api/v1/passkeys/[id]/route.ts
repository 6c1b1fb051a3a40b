import { z } from "zod";
import { removePasskey, renamePasskey } from "@/lib/auth/passkeys";
import { route } from "@/lib/http/route";

const Params = z.object({ id: z.string().min(1).max(1000) });

export const PATCH = route(
  { access: "viewer", person: true, params: Params, body: z.object({ name: z.string().trim().min(1).max(100) }) },
  async ({ db, actor, params, body }) => ({
    passkey: await renamePasskey({ db, actor, input: { id: params.id, name: body.name } }),
  }),
);

export const DELETE = route({ access: "viewer", person: true, params: Params }, async ({ db, actor, params }) =>
  removePasskey({ db, actor, input: { id: params.id } }),
);
