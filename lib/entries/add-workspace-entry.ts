import "server-only";
import { z } from "zod";
import type { Db } from "@/db/client";
import { actorLabel, type Actor } from "@/lib/auth/actor";
import { ValidationError } from "@/lib/errors";
import { addSessionEntry } from "@/lib/session-entries/session-entries";
import type { SessionEntryRow } from "@/lib/stores";
import { agentInfo } from "@/lib/agents";
import { engineOf } from "@/lib/agents/registry";
import type { AddWrite } from "@/lib/agents/types";
import { requirePerson, requireStoreRight, withStoreErrors, workspaceStores } from "./context";
import { requireCan } from "@/lib/auth/access";
import { requireFreshPasskey } from "@/lib/auth/passkeys";
import { auditActor } from "@/lib/audit";
import { STORE_AGENTS } from "@/lib/agents";
import { ACTIONS } from "@/lib/policy/types";
import { addEntryAudited } from "./write-entry";

export const AddWorkspaceEntryInput = z.object({
  workspace: z.string().min(1),
  agent: z.enum(STORE_AGENTS),
  scope: z.enum(["workspace", "global"]),
  /** Which of the agent's files of that scope (its catalogue's `addFiles`); default its first. */
  file: z.string().trim().min(1).max(200).optional(),
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
}): Promise<AddWrite> {
  const args = AddWorkspaceEntryInput.parse(input);
  const role = requireStoreRight(actor, "entry.add", args.workspace, args.scope);
  if (args.action === "allow") requirePerson(actor, "adding an allow rule");
  if (args.action === "allow" && (await (await engineOf(args.agent)).isToolWide(args.rule)))
    await requireFreshPasskey(db, actor, "a tool-wide allow rule");
  if (args.file) checkFile(args.agent, args.scope, args.file);
  const actorName = actorLabel(actor);
  const { workspace, paths } = await workspaceStores(db, actorName, args.workspace);
  return withStoreErrors(() =>
    addEntryAudited(db, {
      auditActor: auditActor(actor, { workspaceId: workspace.id, role }),
      actorName,
      workspaceId: workspace.id,
      paths,
      agent: args.agent,
      scope: args.scope,
      action: args.action,
      rule: args.rule,
      file: args.file,
    }),
  );
}

/** The file must be one of the agent's files of that scope (the catalogue's `addFiles`). */
function checkFile(agent: string, scope: "workspace" | "global", file: string): void {
  const info = agentInfo(agent)!;
  const files = info.addFiles ?? [];
  if (!files.length) throw new ValidationError(`${info.label} has one store per scope: leave the file out`);
  const here = files.filter((f) => f.scopes.includes(scope)).map((f) => f.file);
  if (!here.includes(file)) throw new ValidationError(`${scope} scope has only ${here.join(" and ")}`);
}

export const AddWorkspaceSessionEntryInput = z.object({
  workspace: z.string().min(1),
  agentSessionId: z.string().trim().min(1).max(300),
  agent: z.enum(STORE_AGENTS),
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
  const row = await db.transaction((tx) =>
    addSessionEntry(tx, {
      actorName: actorLabel(actor),
      input: {
        workspaceId: workspace.id,
        agentSessionId: args.agentSessionId,
        agent: args.agent,
        action: args.action,
        rule: args.rule,
      },
    }),
  );
  return { ...row, entryId: `session:${row.id}` };
}
