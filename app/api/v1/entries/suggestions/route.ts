import { suggestWorkspaceNarrowings, SuggestNarrowingsInput } from "@/lib/entries";
import { route } from "@/lib/http/route";

export const GET = route({ access: "viewer", query: SuggestNarrowingsInput }, ({ db, actor, query }) =>
  suggestWorkspaceNarrowings({ db, actor, input: query }),
);
