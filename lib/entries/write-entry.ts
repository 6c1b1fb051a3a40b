import "server-only";
import type { Db } from "@/db/client";
import { storesOf } from "@/lib/agents/registry";
import { editEntry } from "@/lib/agents/all-stores";
import type { AddWrite, StoreWrite } from "@/lib/agents/types";
import type { AuditActor } from "@/lib/audit";
import type { StorePaths } from "@/lib/stores";
import { recordEntryChange } from "./audit";
import { auditWorkspaceFor } from "./context";

/** Who writes, where the request was made and which stores it reads: the same for every audited store write. */
interface AuditedWriteBy {
  auditActor: AuditActor;
  actorName: string;
  /** The workspace the request names (the row's workspace unless the store is machine-wide). */
  workspaceId: string;
  paths: StorePaths;
}

/**
 * The one way a rule reaches an agent's store file: the agent's own `add` (the file and shape the agent writes),
 * then the `entry.added` audit row with the file's version before and after. The Rules page's add and a card's
 * "always allow" both come through here, after their own checks.
 */
export async function addEntryAudited(
  db: Db,
  args: AuditedWriteBy & {
    agent: string;
    scope: "workspace" | "global";
    action: "allow" | "ask" | "deny";
    rule: string;
    file?: string;
    /** Facts for the audit row (the card that remembered it). */
    extra?: Record<string, unknown>;
  },
): Promise<AddWrite> {
  const stores = await storesOf(args.agent);
  const result = await stores.add({
    ...args.paths,
    scope: args.scope,
    action: args.action,
    rule: args.rule,
    ...(args.file ? { file: args.file } : {}),
  });
  if (!result.unchanged)
    await db.transaction((tx) =>
      recordEntryChange(tx, {
        auditActor: args.auditActor,
        actorName: args.actorName,
        workspaceId: auditWorkspaceFor(result.scope, args.workspaceId),
        requestedIn: args.workspaceId,
        action: "entry.added",
        entryId: result.id,
        agent: args.agent,
        entryAction: args.action,
        rule: args.rule,
        result,
        ...(args.extra ? { extra: args.extra } : {}),
      }),
    );
  return result;
}

/**
 * The one way a file entry leaves its store: the owning agent's own `revoke` (found by id through the registry,
 * refused if the file moved past `expectedVersion`), then the `entry.revoked` audit row with the file's version
 * before and after. The Rules page's revoke and a card's Undo of "always allow" both come through here, after their
 * own checks. Session entries are database rows with their own audited delete (lib/session-entries).
 */
export async function revokeEntryAudited(
  db: Db,
  args: AuditedWriteBy & {
    id: string;
    expectedVersion?: string;
    /** Facts for the audit row (the card whose answer is undone). */
    extra?: Record<string, unknown>;
  },
): Promise<StoreWrite> {
  const target = {
    ...args.paths,
    id: args.id,
    ...(args.expectedVersion ? { expectedVersion: args.expectedVersion } : {}),
  };
  const result = await editEntry(target, (stores) => stores.revoke(target));
  const { entry } = result;
  await db.transaction((tx) =>
    recordEntryChange(tx, {
      auditActor: args.auditActor,
      actorName: args.actorName,
      workspaceId: auditWorkspaceFor(result.scope, args.workspaceId),
      requestedIn: args.workspaceId,
      action: "entry.revoked",
      entryId: args.id,
      agent: entry?.agent ?? "unknown",
      entryAction: entry?.action ?? "unknown",
      rule: entry?.rule ?? result.before.text,
      result,
      ...(args.extra ? { extra: args.extra } : {}),
    }),
  );
  return result;
}
