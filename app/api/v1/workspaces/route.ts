import { json, route } from "@/lib/http/route";
import { detectAgentStores } from "@/lib/workspaces/agent-stores";
import { AddWorkspaceInput, addWorkspace, listWorkspaces } from "@/lib/workspaces/workspaces";
import { actorLabel } from "@/lib/auth/actor";

/** Registered workspaces with the agent stores found in each. */
export const GET = route({ access: "viewer" }, async ({ db }) => {
  const rows = await listWorkspaces(db);
  return { workspaces: rows.map((w) => ({ ...w, stores: detectAgentStores(w.path) })) };
});

export const POST = route({ access: "admin", body: AddWorkspaceInput }, async ({ db, actor, body }) => {
  const workspace = await addWorkspace(db, { actorName: actorLabel(actor), input: body });
  return json({ workspace: { ...workspace, stores: detectAgentStores(workspace.path) } }, 201);
});
