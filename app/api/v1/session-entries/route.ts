import { addWorkspaceSessionEntry, AddWorkspaceSessionEntryInput } from "@/lib/entries";
import { json, route } from "@/lib/http/route";

/** Add a session entry by hand; revoke it through /api/v1/entries/revoke with its `session:` id. */
export const POST = route({ access: "admin", body: AddWorkspaceSessionEntryInput }, async ({ db, actor, body }) => json({ entry: await addWorkspaceSessionEntry({ db, actor, input: body }) }, 201));
