import "server-only";
import type { Db } from "@/db/client";
import { isPerson, PERSON_ONLY, type Actor } from "@/lib/auth/actor";
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

export type { RefusalKind } from "@/lib/stores/errors";

/**
 * Runs store work. Store refusals are AppErrors carrying their status, exit code and `details.kind`
 * (lib/stores/errors.ts), so nothing is translated here any more; kept as the verbs' one call site.
 */
export async function withStoreErrors<T>(work: () => Promise<T>): Promise<T> {
  return work();
}
