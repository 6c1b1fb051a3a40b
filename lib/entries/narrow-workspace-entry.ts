import "server-only";
import fs from "node:fs";
import { z } from "zod";
import type { Db } from "@/db/client";
import { actorLabel, type Actor } from "@/lib/auth/actor";
import { AppError, NotFoundError } from "@/lib/errors";
import { editEntry, listAllEntries } from "@/lib/agents/all-stores";
import { listEntries, suggestNarrowings, type NarrowResult } from "@/lib/stores";
import { recordEntryChange } from "./audit";
import { auditWorkspaceFor, requirePerson, requireStoreRight, withStoreErrors, workspaceStores } from "./context";
import { requireCan } from "@/lib/auth/access";
import { auditActor } from "@/lib/audit";

export const NarrowWorkspaceEntryInput = z.object({
  workspace: z.string().min(1),
  id: z.string().min(1).max(200),
  version: z.string().min(1).max(100),
  to: z.string().trim().min(1, "give the narrower entry").max(10_000),
});
export type NarrowWorkspaceEntryInput = z.infer<typeof NarrowWorkspaceEntryInput>;

export const PreviewNarrowingInput = NarrowWorkspaceEntryInput.omit({ version: true });
export type PreviewNarrowingInput = z.infer<typeof PreviewNarrowingInput>;

export const SuggestNarrowingsInput = z.object({ workspace: z.string().min(1), id: z.string().min(1).max(200) });
export type SuggestNarrowingsInput = z.infer<typeof SuggestNarrowingsInput>;

/** Replace an entry with one the engine proves narrower, and record the change. */
export async function narrowWorkspaceEntry({
  db,
  actor,
  input,
}: {
  db: Db;
  actor: Actor;
  input: NarrowWorkspaceEntryInput;
}): Promise<NarrowResult> {
  requirePerson(actor, "rewriting an entry");
  const args = NarrowWorkspaceEntryInput.parse(input);
  requireCan(actor, "entry.narrow", args.workspace);
  const actorName = actorLabel(actor);
  const { workspace, paths } = await workspaceStores(db, actorName, args.workspace);
  const entry = (await withStoreErrors(() => listAllEntries(paths))).entries.find((e) => e.id === args.id);
  const role = requireStoreRight(actor, "entry.narrow", args.workspace, entry?.scope ?? "workspace");
  const target = { ...paths, id: args.id, to: args.to, expectedVersion: args.version };
  const result = await withStoreErrors(() => editEntry(target, (stores) => stores.narrow(target)));
  await db.transaction((tx) =>
    recordEntryChange(tx, {
      auditActor: auditActor(actor, { workspaceId: workspace.id, role }),
      actorName,
      workspaceId: auditWorkspaceFor(result.scope, workspace.id),
      requestedIn: workspace.id,
      action: "entry.narrowed",
      entryId: args.id,
      agent: entry?.agent ?? "unknown",
      entryAction: entry?.action ?? "unknown",
      rule: result.from,
      result,
      extra: { to: result.to },
    }),
  );
  return result;
}

/** The dialog's live check: would this SPEC be accepted? Writes nothing. */
export async function previewNarrowing({
  db,
  actor,
  input,
}: {
  db: Db;
  actor: Actor;
  input: PreviewNarrowingInput;
}): Promise<{ proved: boolean; reason: string; to?: string }> {
  const args = PreviewNarrowingInput.parse(input);
  requireCan(actor, "entry.view", args.workspace);
  if (args.id.startsWith("session:")) return { proved: false, reason: "session entries can be revoked, not narrowed" };
  const { paths } = await workspaceStores(db, actorLabel(actor), args.workspace);
  // Every agent's entry, through the registry: the agent's own proof and edit, with nothing written (dryRun).
  const target = { ...paths, id: args.id, dryRun: true };
  try {
    const result = await editEntry(target, (stores) => stores.narrow({ ...target, to: args.to }));
    return { proved: true, reason: "narrower ✓", to: result.to };
  } catch (error) {
    if (error instanceof AppError && error.status < 500) return { proved: false, reason: error.message };
    throw error;
  }
}

const listDir = (abs: string) =>
  fs
    .readdirSync(abs, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);

/** Narrower candidates for one entry (sub-commands, sub-folders, allow→ask…); each is still proved on save. */
export async function suggestWorkspaceNarrowings({
  db,
  actor,
  input,
}: {
  db: Db;
  actor: Actor;
  input: SuggestNarrowingsInput;
}): Promise<{ suggestions: string[] }> {
  const args = SuggestNarrowingsInput.parse(input);
  requireCan(actor, "entry.view", args.workspace);
  if (args.id.startsWith("session:")) return { suggestions: [] };
  const { paths } = await workspaceStores(db, actorLabel(actor), args.workspace);
  const entry = (await withStoreErrors(() => listAllEntries(paths))).entries.find((e) => e.id === args.id);
  if (!entry) throw new NotFoundError(`no entry ${args.id} — refresh`);
  // The suggestions speak the ladder agents' rule syntax (Shell(git:*), plist forms); other agents get none yet.
  const ladder = (await withStoreErrors(() => listEntries(paths))).entries.some((e) => e.id === args.id);
  return {
    suggestions: ladder ? suggestNarrowings(entry, { listDir, workspace: paths.workspace, home: paths.home }) : [],
  };
}
