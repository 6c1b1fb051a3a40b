import "server-only";
import { z } from "zod";
import type { Db } from "@/db/client";
import { actorLabel, type Actor } from "@/lib/auth/actor";
import { editEntry, listAllEntries } from "@/lib/agents/all-stores";
import { revokeEntryDetailed, type WriteResult } from "@/lib/stores";
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
    : (await withStoreErrors(() => listAllEntries(paths))).entries.find((e) => e.id === args.id);
  const role = requireStoreRight(actor, "entry.revoke", args.workspace, listed?.scope ?? "session");
  // The agent's stores find the entry by id and give it back for the audit row; session rows live in the database.
  const { entry, ...result } = isSession
    ? await withStoreErrors(async () => {
        const { result, entry } = await revokeEntryDetailed({ ...paths, id: args.id, sessionSource });
        return { ...result, entry: entry ?? undefined };
      })
    : await withStoreErrors(() => {
        const target = { ...paths, id: args.id, expectedVersion: args.version };
        return editEntry(target, (stores) => stores.revoke(target));
      });
  // Session rows are deleted together with their own audit row (lib/session-entries).
  if (!isSession) {
    await db.transaction((tx) =>
      recordEntryChange(tx, {
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
      }),
    );
  }
  return result;
}
