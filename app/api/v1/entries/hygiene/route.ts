import { workspaceHygiene, WorkspaceHygieneInput } from "@/lib/entries";
import { route } from "@/lib/http/route";

export const GET = route({ access: "viewer", query: WorkspaceHygieneInput }, async ({ db, actor, query }) =>
  workspaceHygiene({ db, actor, input: query }),
);
