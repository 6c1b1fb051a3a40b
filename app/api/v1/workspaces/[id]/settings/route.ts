import { z } from "zod";
import { route } from "@/lib/http/route";
import { setWorkspaceSettings, WorkspaceSettingsInput } from "@/lib/workspaces/workspaces";

/** `{ requirePasskey }`: whether answers in this workspace must be confirmed with a passkey (admin there). */
export const PUT = route(
  { access: "admin", person: true, params: z.object({ id: z.string().min(1).max(200) }), body: WorkspaceSettingsInput },
  async ({ db, actor, params, body }) => ({
    workspace: await setWorkspaceSettings({ db, actor, input: { id: params.id, ...body } }),
  }),
);
