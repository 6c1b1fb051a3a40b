import "server-only";
import os from "node:os";
import path from "node:path";
import type { Db } from "@/db/client";
import { ConflictError, ForbiddenError, NotFoundError, UnprocessableError } from "@/lib/errors";
import { sessionEntrySource } from "@/lib/session-entries/session-entries";
import * as stores from "@/lib/stores";
import { getWorkspace, type Workspace } from "@/lib/workspaces/workspaces";

export interface WorkspaceStores {
  workspace: Workspace;
  paths: stores.StorePaths;
  sessionSource: stores.SessionEntrySource;
}

/**
 * The store paths for a registered workspace: global stores come from the server's `$HOME`
 * (tests point it at a temp folder), the managed file from `COCKPIT_MANAGED_SETTINGS` as in the CLI.
 */
export async function workspaceStores(db: Db, actorName: string, workspaceId: string): Promise<WorkspaceStores> {
  const workspace = await getWorkspace(db, workspaceId);
  const managed = process.env.COCKPIT_MANAGED_SETTINGS;
  const paths: stores.StorePaths = {
    workspace: workspace.path,
    home: path.resolve(process.env.HOME || os.homedir()),
    managedSettingsPath: managed === undefined ? stores.DEFAULT_MANAGED_SETTINGS : managed || null,
  };
  return { workspace, paths, sessionSource: sessionEntrySource(db, { actorName, workspaceId }) };
}

/** Why a write was refused, for the page to pick its message without parsing text. */
export type RefusalKind =
  | "changed-on-disk"
  | "locked"
  | "symlink"
  | "invalid-store"
  | "read-only"
  | "not-narrower"
  | "invalid-input"
  | "not-found";

/**
 * Store-layer refusals as the app's typed errors (the route maps those to HTTP once). Done here
 * because lib/errors maps unknown classes such as StoreLockedError and InvalidInputError to 500.
 */
export async function withStoreErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw translateStoreError(error);
  }
}

export function translateStoreError(error: unknown): unknown {
  if (!(error instanceof stores.StoreError)) return error;
  const refusal = (kind: RefusalKind) => ({ kind });
  if (error instanceof stores.StoreLockedError) return new ConflictError(error.message, refusal("locked"));
  if (error instanceof stores.ConflictError) return new ConflictError(error.message, refusal("changed-on-disk"));
  if (error instanceof stores.SymlinkRefusedError) return new ConflictError(error.message, refusal("symlink"));
  if (error instanceof stores.InvalidStoreError) return new UnprocessableError(error.message, refusal("invalid-store"));
  if (error instanceof stores.NarrowingRefusedError)
    return new UnprocessableError(error.message, refusal("not-narrower"));
  if (error instanceof stores.InvalidInputError) return new UnprocessableError(error.message, refusal("invalid-input"));
  if (error instanceof stores.ReadOnlyStoreError) return new ForbiddenError(error.message, refusal("read-only"));
  if (error instanceof stores.NotFoundError) return new NotFoundError(error.message, refusal("not-found"));
  return new UnprocessableError(error.message);
}
