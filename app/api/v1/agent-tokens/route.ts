import { z } from "zod";
import { createAgentToken, listAgentTokens } from "@/lib/auth/agent-tokens";
import { json, route } from "@/lib/http/route";
import { findWorkspace } from "@/lib/workspaces/workspaces";

export const dynamic = "force-dynamic";

const CreateAgentTokenBody = z.object({
  workspace: z.string().trim().min(1).max(4096),
  name: z.string().trim().min(1).max(200).optional(),
});

export const GET = route(
  { access: "admin", query: z.object({ workspace: z.string().min(1).max(4096).optional() }) },
  async ({ db, actor, query }) => {
    const workspaceId = query.workspace ? (await findWorkspace(db, query.workspace)).id : undefined;
    return { tokens: await listAgentTokens({ db, actor, input: { workspaceId } }) };
  },
);

/** Creates a token bound to one workspace (by id or folder); the plain token is in this response only. */
export const POST = route({ access: "admin", body: CreateAgentTokenBody }, async ({ db, actor, body }) => {
  const workspace = await findWorkspace(db, body.workspace);
  const created = await createAgentToken({ db, actor, input: { workspaceId: workspace.id, name: body.name } });
  return json({ ...created, workspaceId: workspace.id }, 201);
});
