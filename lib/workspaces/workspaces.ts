import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { workspaces } from "@/db/schema";
import { env } from "@/lib/config/env";
import { namedActor, recordAudit } from "@/lib/audit";
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

/** Registers a project folder; registering the same folder twice is a conflict. */
export async function addWorkspace(
  db: Db,
  { actorName, input, guard }: { actorName: string; input: AddWorkspaceInput; guard?: ProtectedFolders },
): Promise<Workspace> {
  const folder = resolveWorkspaceFolder(input.path);
  assertNotProtected(folder, guard ?? defaultGuard());
  const name = input.name ?? (path.basename(folder) || folder);
  return db.transaction(async (tx) => {
    const [existing] = await tx.select().from(workspaces).where(eq(workspaces.path, folder));
    if (existing) throw new ConflictError(`${folder} is already registered`);
    const [row] = await tx.insert(workspaces).values({ id: crypto.randomUUID(), path: folder, name }).returning();
    await recordAudit(tx, {
      actor: namedActor(actorName),
      type: "workspace.added",
      target: row!.id,
      workspaceId: row!.id,
      detail: { path: folder },
    });
    return row!;
  });
}

export async function listWorkspaces(db: Db): Promise<Workspace[]> {
  return db.select().from(workspaces).orderBy(asc(workspaces.name), asc(workspaces.path));
}

export async function getWorkspace(db: Db, id: string): Promise<Workspace> {
  const [row] = await db.select().from(workspaces).where(eq(workspaces.id, id));
  if (!row) throw new NotFoundError(`no workspace with id ${id}`);
  return row;
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

export async function removeWorkspace(
  db: Db,
  { actorName, idOrPath }: { actorName: string; idOrPath: string },
): Promise<Workspace> {
  const found = await findWorkspace(db, idOrPath);
  await db.transaction(async (tx) => {
    await recordAudit(tx, {
      type: "workspace.removed",
      actor: namedActor(actorName),
      target: found.id,
      workspaceId: found.id,
      detail: { path: found.path },
    });
    await tx.delete(workspaces).where(eq(workspaces.id, found.id));
  });
  return found;
}
