import { listWorkspaceEntries, ListWorkspaceEntriesInput } from "@/lib/entries";
import { route } from "@/lib/http/route";

/** Every entry of a workspace's stores, re-read from disk on each call (refresh is a refetch). */
export const GET = route({ access: "viewer", query: ListWorkspaceEntriesInput }, ({ db, actor, query }) =>
  listWorkspaceEntries({ db, actor, input: query }),
);
