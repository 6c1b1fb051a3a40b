import type { DbOrTx } from "@/db/client";
import { can, visibleWorkspaces } from "@/lib/auth/access";
import { hasRole, type Actor } from "@/lib/auth/actor";
import { ForbiddenError } from "@/lib/errors";

/**
 * Which events a person may read: the workspaces they can see, and whether they also see events
 * that belong to no workspace (logins, settings, tokens, webhooks).
 */
export interface AuditVisibility {
  workspaceIds: "all" | string[];
  global: boolean;
  /** Changes to machine-wide stores (global, managed scope; rows with no workspace): every workspace's admins see them. */
  machineEntries: boolean;
}

/**
 * The one place that decides audit read access, from `can()`: a person reads the events of the
 * workspaces they may see (viewer or more there); events that belong to no workspace (logins, settings,
 * tokens, webhooks, collaborators) only with audit access on all workspaces (the owner, or a grant on all).
 */
export async function auditVisibility(db: DbOrTx, actor: Actor): Promise<AuditVisibility> {
  void db; // memberships travel on the actor (re-read per request)
  if (actor.kind === "agent" || actor.kind === "notification")
    return { workspaceIds: [actor.workspaceId], global: false, machineEntries: false };
  const workspaceIds = visibleWorkspaces(actor);
  const global = can(actor, "audit.view", null).ok && can(actor, "settings.manage", null).ok;
  return { workspaceIds, global, machineEntries: global || hasRole(actor, "admin") };
}

/** Refuses a workspace filter the actor may not read (403 rather than an empty page that hides why). */
export function requireWorkspaceVisible(v: AuditVisibility, workspaceId: string | undefined): void {
  if (!workspaceId || v.workspaceIds === "all") return;
  if (!v.workspaceIds.includes(workspaceId)) throw new ForbiddenError("you cannot read this workspace's audit events");
}
