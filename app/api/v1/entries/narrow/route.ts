import { narrowWorkspaceEntry, NarrowWorkspaceEntryInput } from "@/lib/entries";
import { route } from "@/lib/http/route";

export const POST = route(
  { access: "admin", person: true, body: NarrowWorkspaceEntryInput },
  async ({ db, actor, body }) => ({
    result: await narrowWorkspaceEntry({ db, actor, input: body }),
  }),
);
