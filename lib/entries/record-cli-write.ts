import "server-only";
import { z } from "zod";
import type { Db } from "@/db/client";
import { listAllEntries } from "@/lib/agents/all-stores";
import { requireCan } from "@/lib/auth/access";
import { actorLabel, type Actor } from "@/lib/auth/actor";
import { auditActor } from "@/lib/audit";
import { storeEnv } from "@/lib/config/env";
import { ConflictError, UnprocessableError } from "@/lib/errors";
import { SCOPES } from "@/lib/policy/types";
import { storePaths } from "@/lib/stores/store-paths";
import { findWorkspace } from "@/lib/workspaces/workspaces";
import { recordEntryChange } from "./audit";
import { auditWorkspaceFor } from "./context";

const Line = z.object({ version: z.string().min(1).max(100), line: z.number().int(), text: z.string().max(20_000) });

/** What `cockpit revoke`, `narrow` and `add` wrote (their store's WriteResult) and about which entry. */
export const RecordCliWriteInput = z.object({
  /** The project folder the CLI used (`--workspace`, absolute). */
  workspace: z.string().min(1).max(4096),
  change: z.enum(["entry.added", "entry.revoked", "entry.narrowed"]),
  entryId: z.string().min(1).max(200),
  entryAction: z.string().min(1).max(20),
  rule: z.string().max(10_000),
  /** The narrower entry (narrow). */
  to: z.string().max(10_000).optional(),
  result: z.object({
    store: z.string().min(1).max(4096),
    scope: z.enum(SCOPES),
    before: Line,
    after: Line,
    scopeWarning: z.string().max(500).optional(),
  }),
});
export type RecordCliWriteInput = z.infer<typeof RecordCliWriteInput>;

/**
 * The `entry.*` row of a store write the CLI made itself (docs/conventions.md, "Store writes from the CLI"). The CLI
 * edits the agent's file with its own OS rights, exactly as before (ADR 0001: store-file verbs need no server), then
 * reports the write here. It takes the owner's role (the CLI's credentials have it) and writes no file, so the local
 * credential gains nothing it could not already do. It records only a write that is really on disk:
 * - the file must be one of the agent's stores for that folder as the cockpit sees them (the row names that store's
 *   agent), else 422;
 * - at the version the CLI wrote, else 409 and no row;
 * - an added entry must be in it, else 409.
 * The row names the registered workspace at that folder (none for another folder or a machine-wide store).
 */
export async function recordCliStoreWrite({
  db,
  actor,
  input,
}: {
  db: Db;
  actor: Actor;
  input: z.input<typeof RecordCliWriteInput>;
}): Promise<{ recorded: true; workspaceId: string | null }> {
  // The owner's role everywhere: the CLI's credentials (and the owner). A machine-wide check, since the folder may be
  // any folder the CLI was pointed at.
  const role = requireCan(actor, "entry.record_cli_write", null);
  const args = RecordCliWriteInput.parse(input);
  const workspace = await findWorkspace(db, args.workspace).catch(() => null);
  const paths = storePaths(storeEnv(), args.workspace);
  const listing = await listAllEntries(paths);
  const store = listing.stores.find((s) => s.path === args.result.store);
  if (!store)
    throw new UnprocessableError(
      `${args.result.store} is not one of the agents' stores for ${paths.workspace} as the cockpit sees them`,
    );
  if (store.version !== args.result.after.version)
    throw new ConflictError(`${store.path} has changed since the CLI wrote it: its write cannot be recorded as it was`);
  if (args.change === "entry.added" && !listing.entries.some((e) => e.id === args.entryId))
    throw new ConflictError(`${store.path} holds no entry ${args.entryId}: nothing was added`);
  const workspaceId = workspace ? auditWorkspaceFor(args.result.scope, workspace.id) : null;
  await db.transaction((tx) =>
    recordEntryChange(tx, {
      auditActor: auditActor(actor, { workspaceId, role }),
      actorName: actorLabel(actor),
      workspaceId,
      ...(workspace ? { requestedIn: workspace.id } : {}),
      action: args.change,
      entryId: args.entryId,
      agent: store.agent,
      entryAction: args.entryAction,
      rule: args.rule,
      result: args.result,
      extra: { via: "cli", folder: paths.workspace, ...(args.to !== undefined ? { to: args.to } : {}) },
    }),
  );
  return { recorded: true, workspaceId };
}
