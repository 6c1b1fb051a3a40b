import "server-only";
import type { Db } from "@/db/client";
import { can, requireCan, type Permission } from "@/lib/auth/access";
import { isPerson, PERSON_ONLY, type Actor, type Role } from "@/lib/auth/actor";
import { ForbiddenError } from "@/lib/errors";
import { sessionEntrySource } from "@/lib/session-entries/session-entries";
import { storeEnv } from "@/lib/config/env";
import * as stores from "@/lib/stores";
import { storePaths } from "@/lib/stores/store-paths";
import { getWorkspace, type Workspace } from "@/lib/workspaces/workspaces";

/** Writing an allow rule (or rewriting an entry) is a person's act, like answering a card. */
export function requirePerson(actor: Actor, doing: string): void {
  if (!isPerson(actor)) throw new ForbiddenError(`${doing} ${PERSON_ONLY}`);
}

/** Scopes whose files govern every workspace on this machine. */
export const MACHINE_WIDE_SCOPES: ReadonlySet<string> = new Set(["global", "managed"]);

/**
 * The right to change an entry in `scope`, asked through the workspace the request names: a workspace store needs
 * the role there; a global (or managed) store governs every workspace, so it needs the role on all workspaces.
 */
export function requireStoreRight(actor: Actor, action: Permission, workspaceId: string, scope: string): Role {
  const role = requireCan(actor, action, workspaceId);
  if (!MACHINE_WIDE_SCOPES.has(scope)) return role;
  const everywhere = can(actor, action, null);
  if (!everywhere.ok)
    throw new ForbiddenError(
      `${scope} rules govern every workspace: changing them needs the ${everywhere.needed} role on all workspaces`,
      { needed: everywhere.needed },
    );
  return everywhere.role;
}

/** Where a changed entry's audit row belongs: its workspace, or none for machine-wide stores (every admin sees it). */
export function auditWorkspaceFor(scope: string, workspaceId: string): string | null {
  return MACHINE_WIDE_SCOPES.has(scope) ? null : workspaceId;
}

export interface WorkspaceStores {
  workspace: Workspace;
  paths: stores.StorePaths;
  sessionSource: stores.SessionEntrySource;
}

/**
 * The store paths for a registered workspace (`storePaths`: the server's `$HOME`, which tests point
 * at a temp folder, and `COCKPIT_MANAGED_SETTINGS`), the same as the CLI and cards use.
 */
export async function workspaceStores(db: Db, actorName: string, workspaceId: string): Promise<WorkspaceStores> {
  const workspace = await getWorkspace(db, workspaceId);
  const paths = storePaths(storeEnv(), workspace.path);
  return { workspace, paths, sessionSource: sessionEntrySource(db, { actorName, workspaceId }) };
}

export type { RefusalKind } from "@/lib/errors";

/**
 * Runs store work. Store refusals are AppErrors (lib/errors) carrying their status, code and `details.kind`,
 * so nothing is translated here any more; kept as the verbs' one call site.
 */
export async function withStoreErrors<T>(work: () => Promise<T>): Promise<T> {
  return work();
}
