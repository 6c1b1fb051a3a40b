import { getDb } from "@/db/client";
import { AuditView } from "@/components/audit/audit-view";
import { requirePageActor } from "@/lib/auth/page";
import { auditVisibility } from "@/lib/audit/access";
import { listWorkspaces } from "@/lib/workspaces/workspaces";

export const metadata = { title: "Audit" };
export const dynamic = "force-dynamic";

/** The audit timeline: filters in the URL, infinite scroll, details, a chart and streamed exports. */
export default async function AuditPage() {
  const actor = await requirePageActor();
  const db = await getDb();
  const visible = await auditVisibility(db, actor);
  const workspaces = (await listWorkspaces(db))
    .filter((w) => visible.workspaceIds === "all" || visible.workspaceIds.includes(w.id))
    .map((w) => ({ id: w.id, name: w.name, path: w.path }));
  return (
    <>
      <h1>Audit</h1>
      <p className="muted">
        Every decision, answer and edit, newest first. The log is hash-chained and signed; filters live in the address,
        so a filtered view can be shared or bookmarked.
      </p>
      <AuditView workspaces={workspaces} />
    </>
  );
}
