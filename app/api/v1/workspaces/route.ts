import { json, route } from "@/lib/http/route";
import { detectAgentStores } from "@/lib/workspaces/agent-stores";
import { AddWorkspaceInput, addWorkspace, listVisibleWorkspaces } from "@/lib/workspaces/workspaces";

/** Registered workspaces the caller may see, with the agent stores found in each. */
export const GET = route({ access: "viewer" }, async ({ db, actor }) => {
  const rows = await listVisibleWorkspaces({ db, actor });
  return { workspaces: rows.map((w) => ({ ...w, stores: detectAgentStores(w.path) })) };
});

export const POST = route({ access: "admin", body: AddWorkspaceInput }, async ({ db, actor, body }) => {
  const workspace = await addWorkspace({ db, actor, input: body });
  return json({ workspace: { ...workspace, stores: detectAgentStores(workspace.path) } }, 201);
});
