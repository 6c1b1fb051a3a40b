import { randomBytes } from "node:crypto";
import { constants, promises as fs } from "node:fs";
import path from "node:path";
import { ConflictError, InvalidStoreError, StoreLockedError, SymlinkRefusedError } from "./errors";
import { decodeStore, readStoreBytes, sha256, type StoreBytes } from "./read-store";
import { captureWrite, capturingWrites } from "./overlay";

const TEMP_MARK = ".cockpit-tmp-";
const LOCK_SUFFIX = ".cockpit-lock";
const LOCK_WAIT_MS = 5_000;
const LOCK_STALE_MS = 30_000;

const tempPrefix = (file: string) => path.join(path.dirname(file), `.${path.basename(file)}${TEMP_MARK}`);
const lockPath = (file: string) => path.join(path.dirname(file), `.${path.basename(file)}${LOCK_SUFFIX}`);

/**
 * Refuse when any component of `file` below `root` (workspace or home) is a symlink, or the file
 * itself is not a regular file. Missing trailing components are fine (a store may be created).
 */
export async function assertNoSymlinks(root: string, file: string): Promise<void> {
  const rel = path.relative(path.resolve(root), path.resolve(file));
  if (!rel || rel.startsWith("..") || path.isAbsolute(rel))
    throw new SymlinkRefusedError(`${file} is not inside ${root}`);
  let current = path.resolve(root);
  const parts = rel.split(path.sep);
  for (let k = 0; k < parts.length; k++) {
    current = path.join(current, parts[k]);
    let stat;
    try {
      stat = await fs.lstat(current);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    if (stat.isSymbolicLink()) throw new SymlinkRefusedError(`refusing to write through a symlink: ${current}`);
    const last = k === parts.length - 1;
    if (!last && !stat.isDirectory()) throw new SymlinkRefusedError(`${current} is not a directory`);
    if (last && !stat.isFile()) throw new SymlinkRefusedError(`${current} is not a regular file`);
  }
}

/** An Emacs buffer visiting `file` leaves a lock symlink `.#<name>` beside it. */
export async function assertNoEmacsLock(file: string): Promise<void> {
  const lock = path.join(path.dirname(file), `.#${path.basename(file)}`);
  try {
    await fs.lstat(lock);
  } catch {
    return;
  }
  throw new StoreLockedError(
    `${path.basename(file)} is open in Emacs (${lock} exists) — save and close it, then retry`,
  );
}

/**
 * Read the store without following a symlink at the final component, with the same limits as every
 * store read; a store that cannot be read (not a regular file, too large, too slow) is never written.
 */
export async function readNoFollow(file: string): Promise<StoreBytes> {
  const bytes = await readStoreBytes(file, { noFollow: true });
  if (bytes.version === "unreadable")
    throw new InvalidStoreError(`${file}: ${bytes.decodeError} — it is never overwritten`);
  return bytes;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Our own advisory lock (editors ignore it): serialises cockpit writers across processes. The lock
 * is hard-linked from a temp file that already holds our pid, so it is never seen empty.
 */
async function acquireLock(file: string): Promise<() => Promise<void>> {
  const lock = lockPath(file);
  const deadline = Date.now() + LOCK_WAIT_MS;
  const claim = `${tempPrefix(file)}${process.pid}-${randomBytes(6).toString("hex")}`;
  await fs.writeFile(claim, `${process.pid} ${Date.now()}`, { flag: "wx", mode: 0o600 });
  try {
    for (;;) {
      try {
        await fs.link(claim, lock);
        return async () => {
          await fs.unlink(lock).catch(() => undefined);
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      if (await lockIsStale(lock)) {
        await fs.unlink(lock).catch(() => undefined);
        continue;
      }
      if (Date.now() > deadline) throw new ConflictError("another cockpit write holds this store — retry");
      await sleep(5 + Math.random() * 20);
    }
  } finally {
    await fs.unlink(claim).catch(() => undefined);
  }
}

async function lockIsStale(lock: string): Promise<boolean> {
  try {
    const [pidText, atText] = (await fs.readFile(lock, "utf8")).split(" ");
    const pid = Number(pidText);
    if (!Number.isInteger(pid) || pid <= 0) return Date.now() - (await fs.lstat(lock)).mtimeMs > 1_000;
    return !processAlive(pid) || Date.now() - Number(atText) > LOCK_STALE_MS;
  } catch {
    return false;
  }
}

async function fsyncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, constants.O_RDONLY);
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on directories; the rename itself is still atomic.
  } finally {
    await handle.close();
  }
}

export interface AtomicWriteInput {
  file: string;
  /** Workspace or home: every component below it is checked for symlinks. */
  root: string;
  /** The version the new content was computed from ("missing" to create the file). */
  expectedVersion: string;
  content: string;
  emacsLockCheck?: boolean;
  /** Test hook: runs after the temp file is durable, before the final version check and rename. */
  beforeRename?: () => Promise<void>;
}

/**
 * Compare-and-swap replace: temp file beside the target (O_EXCL, fsync), re-check the version,
 * rename over the target, fsync the folder. Throws ConflictError when the file changed.
 */
export async function writeAtomically(input: AtomicWriteInput): Promise<{ version: string }> {
  const { file, root, expectedVersion, content } = input;
  await assertNoSymlinks(root, file);
  // An impact preview: the same checks, the content kept in memory, nothing on disk (lib/stores/overlay.ts).
  if (capturingWrites()) {
    if ((await readNoFollow(file)).version !== expectedVersion) throw new ConflictError();
    captureWrite(file, content);
    return { version: sha256(content) };
  }
  if (input.emacsLockCheck) await assertNoEmacsLock(file);
  await ensureFolder(root, path.dirname(file));
  const release = await acquireLock(file);
  const temp = `${tempPrefix(file)}${process.pid}-${randomBytes(6).toString("hex")}`;
  let renamed = false;
  try {
    const current = await readNoFollow(file);
    if (current.version !== expectedVersion) throw new ConflictError();
    const mode = current.exists ? (await fs.lstat(file)).mode & 0o7777 : undefined;
    const handle = await fs.open(
      temp,
      constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW,
      mode ?? 0o644,
    );
    try {
      await handle.writeFile(content, "utf8");
      if (mode !== undefined) await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await input.beforeRename?.();
    await assertNoSymlinks(root, file);
    const again = await readNoFollow(file);
    if (again.version !== expectedVersion) throw new ConflictError();
    await fs.rename(temp, file);
    renamed = true;
    await fsyncDir(path.dirname(file));
    return { version: decodeStore(Buffer.from(content, "utf8")).version };
  } finally {
    if (!renamed) await fs.unlink(temp).catch(() => undefined);
    await release();
  }
}

/** Create missing folders below `root` one at a time, refusing symlinks on the way. */
async function ensureFolder(root: string, dir: string): Promise<void> {
  const rel = path.relative(path.resolve(root), path.resolve(dir));
  if (!rel) return;
  let current = path.resolve(root);
  for (const part of rel.split(path.sep)) {
    current = path.join(current, part);
    try {
      await fs.mkdir(current, { mode: 0o755 });
      await fsyncDir(path.dirname(current));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const stat = await fs.lstat(current);
      if (stat.isSymbolicLink()) throw new SymlinkRefusedError(`refusing to write through a symlink: ${current}`);
      if (!stat.isDirectory()) throw new SymlinkRefusedError(`${current} is not a directory`);
    }
  }
}

/**
 * Startup sweep: remove temp files and locks left by writers that died (their pid is gone).
 * Returns the paths removed.
 */
export async function sweepStaleTemps(dirs: string[]): Promise<string[]> {
  const removed: string[] = [];
  for (const dir of dirs) {
    let names: string[];
    try {
      names = await fs.readdir(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const full = path.join(dir, name);
      const temp = /\.cockpit-tmp-(\d+)-[0-9a-f]+$/.exec(name);
      const stale =
        (temp && name.startsWith(".") && !processAlive(Number(temp[1]))) ||
        (name.startsWith(".") && name.endsWith(LOCK_SUFFIX) && (await lockIsStale(full)));
      if (!stale) continue;
      try {
        const stat = await fs.lstat(full);
        if (!stat.isFile()) continue;
        await fs.unlink(full);
        removed.push(full);
      } catch {
        // Raced with another sweeper or the writer itself: nothing to do.
      }
    }
  }
  return removed;
}
