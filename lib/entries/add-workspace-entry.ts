import "server-only";
import { z } from "zod";
import type { Db } from "@/db/client";
import { actorLabel, type Actor } from "@/lib/auth/actor";
import { ValidationError } from "@/lib/errors";
import { addSessionEntry } from "@/lib/session-entries/session-entries";
import type { SessionEntryRow } from "@/lib/stores";
import { addEntry, type AddResult } from "@/lib/stores";
import { recordEntryChange } from "./audit";
import { auditWorkspaceFor, requirePerson, requireStoreRight, withStoreErrors, workspaceStores } from "./context";
import { requireCan } from "@/lib/auth/access";
import { requireFreshPasskey } from "@/lib/auth/passkeys";
import { isToolWideText } from "@/lib/policy/tool-wide";
import { loadShellParser } from "@/lib/agents/shared/shell-parser";
import { auditActor } from "@/lib/audit";
import { ACTIONS, AGENTS } from "./filters";

const JSON_FILES = ["settings.json", "settings.local.json"] as const;

export const AddWorkspaceEntryInput = z.object({
  workspace: z.string().min(1),
  agent: z.enum(AGENTS),
  scope: z.enum(["workspace", "global"]),
  file: z.enum(JSON_FILES).optional(),
  action: z.enum(ACTIONS),
  rule: z.string().trim().min(1, "give the rule text").max(10_000),
});
export type AddWorkspaceEntryInput = z.infer<typeof AddWorkspaceEntryInput>;

/** Author one rule explicitly in a workspace or global store (global affects every project). */
export async function addWorkspaceEntry({
  db,
  actor,
  input,
}: {
  db: Db;
  actor: Actor;
  input: AddWorkspaceEntryInput;
}): Promise<AddResult> {
  const args = AddWorkspaceEntryInput.parse(input);
  const role = requireStoreRight(actor, "entry.add", args.workspace, args.scope);
  if (args.action === "allow") requirePerson(actor, "adding an allow rule");
  if (args.action === "allow" && isToolWideText(args.rule, args.agent, await loadShellParser()))
    await requireFreshPasskey(db, actor, "a tool-wide allow rule");
  if (args.file && args.agent === "mevedel")
    throw new ValidationError("mevedel has one store per scope: leave the file out");
  if (args.file === "settings.local.json" && args.scope === "global")
    throw new ValidationError("global scope has only settings.json");
  const actorName = actorLabel(actor);
  const { workspace, paths } = await workspaceStores(db, actorName, args.workspace);
  const result = await withStoreErrors(() =>
    addEntry({ ...paths, agent: args.agent, scope: args.scope, file: args.file, action: args.action, rule: args.rule }),
  );
  if (!result.unchanged) {
    await recordEntryChange(db, {
      auditActor: auditActor(actor, { workspaceId: workspace.id, role }),
      actorName,
      workspaceId: auditWorkspaceFor(result.scope, workspace.id),
      requestedIn: workspace.id,
      action: "entry.added",
      entryId: result.id,
      agent: args.agent,
      entryAction: args.action,
      rule: args.rule,
      result,
    });
  }
  return result;
}

export const AddWorkspaceSessionEntryInput = z.object({
  workspace: z.string().min(1),
  agentSessionId: z.string().trim().min(1).max(300),
  agent: z.enum(AGENTS),
  action: z.enum(ACTIONS),
  rule: z.string().trim().min(1).max(10_000),
});
export type AddWorkspaceSessionEntryInput = z.infer<typeof AddWorkspaceSessionEntryInput>;

/** A session entry added by hand (cards add them when a person remembers "for this session"). */
export async function addWorkspaceSessionEntry({
  db,
  actor,
  input,
}: {
  db: Db;
  actor: Actor;
  input: AddWorkspaceSessionEntryInput;
}): Promise<SessionEntryRow & { entryId: string }> {
  const args = AddWorkspaceSessionEntryInput.parse(input);
  const role = requireCan(actor, "entry.add", args.workspace);
  if (args.action === "allow") requirePerson(actor, "adding an allow rule");
  const { workspace } = await workspaceStores(db, actorLabel(actor), args.workspace);
  const row = await addSessionEntry(db, {
    actorName: actorLabel(actor),
    input: {
      workspaceId: workspace.id,
      agentSessionId: args.agentSessionId,
      agent: args.agent,
      action: args.action,
      rule: args.rule,
    },
  });
  return { ...row, entryId: `session:${row.id}` };
}
