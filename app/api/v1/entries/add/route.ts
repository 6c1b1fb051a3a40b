import { addWorkspaceEntry, AddWorkspaceEntryInput } from "@/lib/entries";
import { json, route } from "@/lib/http/route";

/** 201 when the rule was written; 200 with `unchanged: true` when the store already had it. */
export const POST = route(
  { access: "admin", person: true, body: AddWorkspaceEntryInput },
  async ({ db, actor, body }) => {
    const result = await addWorkspaceEntry({ db, actor, input: body });
    return json({ result }, result.unchanged ? 200 : 201);
  },
);
