import "server-only";
import { z } from "zod";
import type { Db } from "@/db/client";
import { actorLabel, type Actor } from "@/lib/auth/actor";
import { listEntries, revokeEntryDetailed, type WriteResult } from "@/lib/stores";
import { recordEntryChange } from "./audit";
import { auditWorkspaceFor, requireStoreRight, withStoreErrors, workspaceStores } from "./context";
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
    : (await withStoreErrors(() => listEntries(paths))).entries.find((e) => e.id === args.id);
  const role = requireStoreRight(actor, "entry.revoke", args.workspace, listed?.scope ?? "session");
  // The store layer finds the entry by id (one read of the stores) and gives it back for the audit row.
  const { result, entry } = await withStoreErrors(() =>
    revokeEntryDetailed({
      ...paths,
      id: args.id,
      expectedVersion: isSession ? undefined : args.version,
      sessionSource,
    }),
  );
  // Session rows are deleted together with their own audit row (lib/session-entries).
  if (!isSession) {
    await recordEntryChange(db, {
      auditActor: auditActor(actor, { workspaceId: workspace.id, role }),
      actorName,
      workspaceId: auditWorkspaceFor(result.scope, workspace.id),
      requestedIn: workspace.id,
      action: "entry.revoked",
      entryId: args.id,
      agent: entry?.agent ?? "unknown",
      entryAction: entry?.action ?? "unknown",
      rule: entry?.rule ?? result.before.text,
      result,
    });
  }
  return result;
}
