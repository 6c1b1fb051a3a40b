import { getDb } from "@/db/client";
import { WorkspacesManager } from "@/components/workspaces/workspaces-manager";
import { detectAgentStores } from "@/lib/workspaces/agent-stores";
import { listVisibleWorkspaces } from "@/lib/workspaces/workspaces";
import { requirePageActor } from "@/lib/auth/page";
import { can } from "@/lib/auth/access";

export const metadata = { title: "Workspaces" };
export const dynamic = "force-dynamic";

export default async function WorkspacesPage() {
  const actor = await requirePageActor();
  const rows = await listVisibleWorkspaces({ db: await getDb(), actor });
  const initial = rows.map((w) => ({
    id: w.id,
    name: w.name,
    path: w.path,
    createdAt: w.createdAt.toISOString(),
    requirePasskey: w.requirePasskey,
    stores: detectAgentStores(w.path),
  }));
  return (
    <>
      <h1>Workspaces</h1>
      <p className="muted">
        A workspace is a project folder an agent works in. The cockpit reads its agents&apos; settings files from there.
      </p>
      <WorkspacesManager initial={initial} canManage={can(actor, "workspace.manage", null).ok} />
    </>
  );
}
