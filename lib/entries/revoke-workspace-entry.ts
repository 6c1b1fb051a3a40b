import "server-only";
import { z } from "zod";
import type { Db } from "@/db/client";
import { actorLabel, type Actor } from "@/lib/auth/actor";
import { listAllEntries } from "@/lib/agents/all-stores";
import { revokeEntryDetailed, type WriteResult } from "@/lib/stores";
import { requireStoreRight, withStoreErrors, workspaceStores } from "./context";
import { revokeEntryAudited } from "./write-entry";
import { requireCan } from "@/lib/auth/access";
import { auditActor } from "@/lib/audit";

export const RevokeWorkspaceEntryInput = z.object({
  workspace: z.string().min(1),
  id: z.string().min(1).max(200),
  /** The store version the entry was listed with; the write refuses if the file moved on. */
  version: z.string().min(1).max(100),
});
export type RevokeWorkspaceEntryInput = z.infer<typeof RevokeWorkspaceEntryInput>;

/** Remove one entry (file or session) and record it; global entries come back with the scope warning. */
export async function revokeWorkspaceEntry({
  db,
  actor,
  input,
}: {
  db: Db;
  actor: Actor;
  input: RevokeWorkspaceEntryInput;
}): Promise<WriteResult> {
  const args = RevokeWorkspaceEntryInput.parse(input);
  requireCan(actor, "entry.revoke", args.workspace);
  const actorName = actorLabel(actor);
  const { workspace, paths, sessionSource } = await workspaceStores(db, actorName, args.workspace);
  const isSession = args.id.startsWith("session:");
  const listed = isSession
    ? null
    : (await withStoreErrors(() => listAllEntries(paths))).entries.find((e) => e.id === args.id);
  const role = requireStoreRight(actor, "entry.revoke", args.workspace, listed?.scope ?? "session");
  // Session rows are deleted together with their own audit row (lib/session-entries).
  if (isSession)
    return withStoreErrors(async () => (await revokeEntryDetailed({ ...paths, id: args.id, sessionSource })).result);
  // A file entry: the agent's own revoke and its entry.revoked row, the same path a card's Undo takes.
  const { entry: _entry, ...result } = await withStoreErrors(() =>
    revokeEntryAudited(db, {
      auditActor: auditActor(actor, { workspaceId: workspace.id, role }),
      actorName,
      workspaceId: workspace.id,
      paths,
      id: args.id,
      expectedVersion: args.version,
    }),
  );
  return result;
}
