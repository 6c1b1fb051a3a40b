import "server-only";
import { requireFreshPasskey } from "@/lib/auth/passkeys";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, asc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { workspaces } from "@/db/schema";
import { auditActor, recordAudit } from "@/lib/audit";
import { requireCan, visibleWorkspaces } from "@/lib/auth/access";
import type { Actor } from "@/lib/auth/actor";
import { env } from "@/lib/config/env";
import { ConflictError, NotFoundError, ValidationError } from "@/lib/errors";

export const AddWorkspaceInput = z.object({
  path: z.string().trim().min(1, "give the folder's path").max(4096),
  name: z.string().trim().min(1).max(200).optional(),
});
export type AddWorkspaceInput = z.infer<typeof AddWorkspaceInput>;

export type Workspace = typeof workspaces.$inferSelect;

/** Checks a folder on disk and returns its absolute real path, or throws a ValidationError saying what is wrong. */
function resolveWorkspaceFolder(input: string): string {
  if (input.includes("\0")) throw new ValidationError("the path contains a NUL byte");
  const absolute = path.resolve(input);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(absolute);
  } catch {
    throw new ValidationError(`${absolute} does not exist`);
  }
  if (!stat.isDirectory()) throw new ValidationError(`${absolute} is not a folder`);
  return fs.realpathSync(absolute);
}

/** Folders no workspace may be: an agent working there could read or write everything in them. */
export interface ProtectedFolders {
  home: string;
  /** The cockpit's data folder (COCKPIT_DATA): credential, database, keys. */
  dataDir: string;
}

const real = (p: string) => {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
};
const within = (child: string, parent: string) =>
  child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);

/**
 * Refuses `/`, the home folder, the cockpit's data folder, a folder inside it and any folder that contains it.
 * A workspace grants an agent its folder; none of these may be granted.
 */
export function assertNotProtected(folder: string, guard: ProtectedFolders): void {
  const dataDir = real(guard.dataDir);
  if (folder === path.parse(folder).root)
    throw new ValidationError(`${folder} is the filesystem root; register a project folder instead`);
  if (folder === real(guard.home))
    throw new ValidationError(`${folder} is your home folder; register a project folder inside it instead`);
  if (within(folder, dataDir))
    throw new ValidationError(`${folder} is inside the cockpit's data folder (${dataDir}); agents must not work there`);
  if (within(dataDir, folder))
    throw new ValidationError(
      `${folder} contains the cockpit's data folder (${dataDir}), which holds its credential and database; ` +
        "move the data folder out of it (COCKPIT_DATA) or register a subfolder",
    );
}

const defaultGuard = (): ProtectedFolders => ({ home: os.homedir(), dataDir: env().dataDir });

/** Registers a project folder (a server-wide change: the owner or an admin of all workspaces); twice is a conflict. */
export async function addWorkspace({
  db,
  actor,
  input,
  guard,
}: {
  db: Db;
  actor: Actor;
  input: z.input<typeof AddWorkspaceInput>;
  guard?: ProtectedFolders;
}): Promise<Workspace> {
  const role = requireCan(actor, "workspace.manage", null);
  input = AddWorkspaceInput.parse(input);
  const folder = resolveWorkspaceFolder(input.path);
  assertNotProtected(folder, guard ?? defaultGuard());
  const name = input.name ?? (path.basename(folder) || folder);
  return db.transaction(async (tx) => {
    const [existing] = await tx.select().from(workspaces).where(eq(workspaces.path, folder));
    if (existing) throw new ConflictError(`${folder} is already registered`);
    const [row] = await tx.insert(workspaces).values({ id: crypto.randomUUID(), path: folder, name }).returning();
    await recordAudit(tx, {
      actor: auditActor(actor, { workspaceId: null, role }),
      type: "workspace.added",
      target: row!.id,
      workspaceId: row!.id,
      detail: { path: folder },
    });
    return row!;
  });
}

/** Every registered workspace, for server-side work (background sweeps); people get `listVisibleWorkspaces`. */
export async function listWorkspaces(db: Db): Promise<Workspace[]> {
  return db.select().from(workspaces).orderBy(asc(workspaces.name), asc(workspaces.path));
}

/** The workspaces this person may see (all for the owner and "all" grants). */
export async function listVisibleWorkspaces({ db, actor }: { db: Db; actor: Actor }): Promise<Workspace[]> {
  const visible = visibleWorkspaces(actor);
  if (visible !== "all" && visible.length === 0) return [];
  return db
    .select()
    .from(workspaces)
    .where(visible === "all" ? undefined : and(inArray(workspaces.id, visible)))
    .orderBy(asc(workspaces.name), asc(workspaces.path));
}

export async function getWorkspace(db: Db, id: string): Promise<Workspace> {
  const [row] = await db.select().from(workspaces).where(eq(workspaces.id, id));
  if (!row) throw new NotFoundError(`no workspace with id ${id}`);
  return row;
}

/** One workspace for a person who may see it; others get 404, so ids of unseen workspaces reveal nothing. */
export async function viewWorkspace({ db, actor, input }: { db: Db; actor: Actor; input: { id: string } }) {
  const workspace = await getWorkspace(db, input.id);
  const visible = visibleWorkspaces(actor);
  if (visible !== "all" && !visible.includes(workspace.id)) throw new NotFoundError(`no workspace with id ${input.id}`);
  return workspace;
}

/** Finds a workspace by id or by folder (as given on the command line). */
export async function findWorkspace(db: Db, idOrPath: string): Promise<Workspace> {
  const [byId] = await db.select().from(workspaces).where(eq(workspaces.id, idOrPath));
  if (byId) return byId;
  let folder = path.resolve(idOrPath);
  try {
    folder = fs.realpathSync(folder);
  } catch {
    // A folder deleted since registration can still be removed by its recorded path.
  }
  const [byPath] = await db.select().from(workspaces).where(eq(workspaces.path, folder));
  if (!byPath) throw new NotFoundError(`no registered workspace at ${folder}`);
  return byPath;
}

export const RemoveWorkspaceInput = z.object({ idOrPath: z.string().min(1).max(4096) });

/** Unregisters a workspace (server-wide: the owner or an admin of all workspaces). */
export async function removeWorkspace({
  db,
  actor,
  input,
}: {
  db: Db;
  actor: Actor;
  input: z.input<typeof RemoveWorkspaceInput>;
}): Promise<Workspace> {
  const role = requireCan(actor, "workspace.manage", null);
  const { idOrPath } = RemoveWorkspaceInput.parse(input);
  const found = await findWorkspace(db, idOrPath);
  await db.transaction(async (tx) => {
    await recordAudit(tx, {
      type: "workspace.removed",
      actor: auditActor(actor, { workspaceId: null, role }),
      target: found.id,
      workspaceId: found.id,
      detail: { path: found.path },
    });
    await tx.delete(workspaces).where(eq(workspaces.id, found.id));
  });
  return found;
}

export const WorkspaceSettingsInput = z.object({ requirePasskey: z.boolean() });

/** Per-workspace settings (admin of the workspace): "approvals need a passkey". */
export async function setWorkspaceSettings({
  db,
  actor,
  input,
}: {
  db: Db;
  actor: Actor;
  input: { id: string } & z.input<typeof WorkspaceSettingsInput>;
}): Promise<Workspace> {
  const workspace = await viewWorkspace({ db, actor, input: { id: input.id } });
  const role = requireCan(actor, "workspace.settings", workspace.id);
  const { requirePasskey } = WorkspaceSettingsInput.parse(input);
  if (workspace.requirePasskey && !requirePasskey)
    await requireFreshPasskey(db, actor, "turning off the passkey requirement");
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(workspaces)
      .set({ requirePasskey })
      .where(eq(workspaces.id, workspace.id))
      .returning();
    await recordAudit(tx, {
      actor: auditActor(actor, { workspaceId: workspace.id, role }),
      type: "workspace.settings",
      target: workspace.id,
      workspaceId: workspace.id,
      detail: { requirePasskey, before: { requirePasskey: workspace.requirePasskey } },
    });
    return row!;
  });
}
