import "server-only";
import { namedActor, recordAudit, type AuditActor, type Tx } from "@/lib/audit";
import type { WriteResult } from "@/lib/stores";

export type EntryAuditAction = "entry.revoked" | "entry.narrowed" | "entry.added";

/**
 * One audit row per file edit: store path, version hashes and the changed line before and after.
 * Written right after the atomic rename, in the caller's transaction (a file and a database row cannot share one).
 */
export async function recordEntryChange(
  tx: Tx,
  args: {
    actorName: string;
    /** The entry's workspace; null for a machine-wide store (global, managed): every workspace's admins see it. */
    workspaceId: string | null;
    /** The workspace the request named (kept when the row belongs to no workspace). */
    requestedIn?: string;
    action: EntryAuditAction;
    entryId: string;
    agent: string;
    entryAction: string;
    rule: string;
    result: WriteResult;
    extra?: Record<string, unknown>;
    /** Who acted, fully attributed (person, role there, session/device, channel); default from actorName. */
    auditActor?: AuditActor;
  },
): Promise<void> {
  const { result } = args;
  await recordAudit(tx, {
    type: args.action,
    actor: args.auditActor ?? namedActor(args.actorName),
    target: args.entryId,
    workspaceId: args.workspaceId,
    rule: args.rule,
    store: result.store,
    agent: args.agent,
    detail: {
      scope: result.scope,
      store: result.store,
      agent: args.agent,
      entryAction: args.entryAction,
      rule: args.rule,
      before: result.before,
      after: result.after,
      oldVersion: result.before.version,
      newVersion: result.after.version,
      ...(result.scopeWarning ? { scopeWarning: result.scopeWarning } : {}),
      ...(args.workspaceId === null && args.requestedIn ? { requestedIn: args.requestedIn } : {}),
      ...args.extra,
    },
  });
}
