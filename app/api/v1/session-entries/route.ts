import { z } from "zod";
import { addWorkspaceSessionEntry, AddWorkspaceSessionEntryInput } from "@/lib/entries";
import { requireCan } from "@/lib/auth/access";
import { json, route } from "@/lib/http/route";
import { listSessionEntries } from "@/lib/session-entries/session-entries";
import { findWorkspace } from "@/lib/workspaces/workspaces";

const ListQuery = z.object({
  workspace: z.string().min(1).max(4096),
  agentSessionId: z.string().min(1).max(300).optional(),
});

/** Session entries of a workspace (by id or folder), optionally of one agent session; `cockpit decide --session` reads these. */
export const GET = route({ access: "viewer", query: ListQuery }, async ({ db, actor, query }) => {
  const workspace = await findWorkspace(db, query.workspace);
  requireCan(actor, "entry.view", workspace.id);
  return {
    workspace: { id: workspace.id, path: workspace.path },
    entries: await listSessionEntries(db, { workspaceId: workspace.id, agentSessionId: query.agentSessionId }),
  };
});

/** Add a session entry by hand; revoke it through /api/v1/entries/revoke with its `session:` id. */
export const POST = route(
  { access: "admin", person: true, body: AddWorkspaceSessionEntryInput },
  async ({ db, actor, body }) => json({ entry: await addWorkspaceSessionEntry({ db, actor, input: body }) }, 201),
);
