import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { PAGE_SIZE, entriesKey } from "@/components/rules/query";
import { RulesView } from "@/components/rules/rules-view";
import { can } from "@/lib/auth/access";
import { requirePageActor } from "@/lib/auth/page";
import { listWorkspaceEntries } from "@/lib/entries";
import { EntryFilters, filtersToSearch } from "@/lib/entries/filters";
import { listVisibleWorkspaces } from "@/lib/workspaces/workspaces";

export const metadata = { title: "Rules" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export default async function RulesPage({ searchParams }: { searchParams: SearchParams }) {
  const actor = await requirePageActor();
  const db = await getDb();
  const params = await searchParams;
  const workspaces = (await listVisibleWorkspaces({ db, actor })).map((w) => ({
    id: w.id,
    name: w.name,
    path: w.path,
  }));
  if (workspaces.length === 0) {
    return (
      <>
        <h1>Rules</h1>
        <p className="muted">
          No workspaces yet. <Link href="/workspaces">Register a project folder</Link> to see the rules and grants its
          agents follow.
        </p>
      </>
    );
  }
  const parsed = EntryFilters.safeParse({
    scope: one(params.scope),
    action: one(params.action),
    tool: one(params.tool),
    q: one(params.q),
    finding: one(params.finding),
  });
  const filters = parsed.success ? parsed.data : {};
  const workspace = one(params.workspace);
  if (!workspace || !workspaces.some((w) => w.id === workspace))
    redirect(`/rules?${filtersToSearch(workspaces[0]!.id, filters)}`);

  // First paint from the server: the first chunk of the filtered list, handed to the query cache.
  const client = new QueryClient();
  const first = await listWorkspaceEntries({
    db,
    actor,
    input: { workspace, ...filters, offset: 0, limit: PAGE_SIZE },
  });
  client.setQueryData(entriesKey(workspace, filters), { pages: [first], pageParams: [0] });
  return (
    <>
      <h1>Rules</h1>
      <p className="muted">
        Every rule and grant your agents follow in this workspace, with the file (or table) that holds it. Revoking or
        narrowing edits that file in place.
      </p>
      <HydrationBoundary state={dehydrate(client)}>
        <RulesView
          workspaces={workspaces}
          initialWorkspace={workspace}
          writable={workspaces.filter((w) => can(actor, "entry.revoke", w.id).ok).map((w) => w.id)}
        />
      </HydrationBoundary>
    </>
  );
}
