import "server-only";
import type { Db } from "@/db/client";
import { storesOf } from "@/lib/agents/registry";
import type { AddWrite } from "@/lib/agents/types";
import type { AuditActor } from "@/lib/audit";
import type { StorePaths } from "@/lib/stores";
import { recordEntryChange } from "./audit";
import { auditWorkspaceFor } from "./context";

/**
 * The one way a rule reaches an agent's store file: the agent's own `add` (the file and shape the agent writes),
 * then the `entry.added` audit row with the file's version before and after. The Rules page's add and a card's
 * "always allow" both come through here, after their own checks.
 */
export async function addEntryAudited(
  db: Db,
  args: {
    auditActor: AuditActor;
    actorName: string;
    /** The workspace the request names (the row's workspace unless the store is machine-wide). */
    workspaceId: string;
    paths: StorePaths;
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
