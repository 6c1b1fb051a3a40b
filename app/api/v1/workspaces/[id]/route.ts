import { z } from "zod";
import { actorLabel } from "@/lib/auth/actor";
import { route } from "@/lib/http/route";
import { detectAgentStores } from "@/lib/workspaces/agent-stores";
import { getWorkspace, removeWorkspace } from "@/lib/workspaces/workspaces";

const Params = z.object({ id: z.string().min(1).max(200) });

export const GET = route({ access: "viewer", params: Params }, async ({ db, params }) => {
  const workspace = await getWorkspace(db, params.id);
  return { workspace: { ...workspace, stores: detectAgentStores(workspace.path) } };
});

/** Unregisters a workspace; its settings files are left untouched. */
export const DELETE = route({ access: "admin", params: Params }, async ({ db, actor, params }) => {
  const removed = await removeWorkspace(db, { actorName: actorLabel(actor), idOrPath: params.id });
  return { removed };
});
