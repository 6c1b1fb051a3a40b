import { z } from "zod";
import { route } from "@/lib/http/route";
import { detectAgentStores } from "@/lib/workspaces/agent-stores";
import { removeWorkspace, viewWorkspace } from "@/lib/workspaces/workspaces";

const Params = z.object({ id: z.string().min(1).max(200) });

export const GET = route({ access: "viewer", params: Params }, async ({ db, actor, params }) => {
  const workspace = await viewWorkspace({ db, actor, input: { id: params.id } });
  return { workspace: { ...workspace, stores: detectAgentStores(workspace.path) } };
});

/** Unregisters a workspace; its settings files are left untouched. */
export const DELETE = route({ access: "admin", params: Params }, async ({ db, actor, params }) => {
  const removed = await removeWorkspace({ db, actor, input: { idOrPath: params.id } });
  return { removed };
});
