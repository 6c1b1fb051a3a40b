import "server-only";
import type { DbOrTx } from "@/db/client";
import { auditEvents } from "@/db/schema";
import type { WriteResult } from "@/lib/stores";

export type EntryAuditAction = "entry.revoked" | "entry.narrowed" | "entry.added";

/**
 * One audit row per file edit: store path, version hashes and the changed line before and after.
 * Written right after the atomic rename; a file and a database row cannot share a transaction.
 */
export async function recordEntryChange(
  db: DbOrTx,
  args: {
    actorName: string;
    workspaceId: string;
    action: EntryAuditAction;
    entryId: string;
    agent: string;
    entryAction: string;
    rule: string;
    result: WriteResult;
    extra?: Record<string, unknown>;
    /** Who acted: person, role there, session/device, channel (lib/auth/attribution). */
    by?: Record<string, unknown>;
  },
): Promise<void> {
  const { result } = args;
  await db.insert(auditEvents).values({
    actor: args.actorName,
    action: args.action,
    target: args.entryId,
    workspaceId: args.workspaceId,
    detail: {
      scope: result.scope,
      store: result.store,
      agent: args.agent,
      entryAction: args.entryAction,
      rule: args.rule,
      before: result.before,
      after: result.after,
      ...(result.scopeWarning ? { scopeWarning: result.scopeWarning } : {}),
      ...args.extra,
      ...args.by,
    },
  });
}
