import type { DbOrTx } from "@/db/client";
import { hasRole, type Actor } from "@/lib/auth/actor";
import { ForbiddenError } from "@/lib/errors";

/**
 * Which events a person may read: the workspaces they can see, and whether they also see events
 * that belong to no workspace (logins, settings, tokens, webhooks).
 */
export interface AuditVisibility {
  workspaceIds: "all" | string[];
  global: boolean;
}

/**
 * The one place that decides audit read access. Today the cockpit has one owner and every
 * collaborator sees every workspace, so a viewer reads all workspace events; events without a
 * workspace are for admins and the owner. When per-workspace roles land, this becomes a `can()`
 * per workspace; callers only use the returned visibility.
 */
export async function auditVisibility(db: DbOrTx, actor: Actor): Promise<AuditVisibility> {
  if (actor.kind === "agent") return { workspaceIds: [actor.workspaceId], global: false };
  if (!hasRole(actor, "viewer")) return { workspaceIds: [], global: false };
  void db; // per-workspace roles will read memberships here
  return { workspaceIds: "all", global: hasRole(actor, "admin") };
}

/** Refuses a workspace filter the actor may not read (403 rather than an empty page that hides why). */
export function requireWorkspaceVisible(v: AuditVisibility, workspaceId: string | undefined): void {
  if (!workspaceId || v.workspaceIds === "all") return;
  if (!v.workspaceIds.includes(workspaceId)) throw new ForbiddenError("you cannot read this workspace's audit events");
}
