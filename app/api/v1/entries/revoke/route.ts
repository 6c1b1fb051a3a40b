import { revokeWorkspaceEntry, RevokeWorkspaceEntryInput } from "@/lib/entries";
import { route } from "@/lib/http/route";

export const POST = route({ access: "admin", body: RevokeWorkspaceEntryInput }, async ({ db, actor, body }) => ({
  result: await revokeWorkspaceEntry({ db, actor, input: body }),
}));
