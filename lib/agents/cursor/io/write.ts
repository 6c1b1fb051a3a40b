/**
 * Writing Cursor's files (I/O): read without following symlinks, apply a pure edit, re-check, and replace the file with
 * compare-and-swap (lib/stores/atomic-write). A file that does not parse is refused untouched.
 */
import { readNoFollow, writeAtomically } from "@/lib/stores/atomic-write";
import { StoreChangedError, InvalidStoreError, ReadOnlyStoreError } from "@/lib/errors";
import { parseCursorConfig, type CursorScope } from "../config";

export interface StoreTarget {
  file: string;
  scope: CursorScope;
  /** Home or workspace: symlinks below it are refused. */
  root: string;
  /** Version the caller listed; omitted = whatever is on disk now. */
  expectedVersion?: string;
  writable?: boolean;
}

/**
 * Read the file (refusing symlinks and non-files), apply a pure edit, check the result still parses as the same
 * kind of file, and write it with compare-and-swap. A broken file is refused untouched.
 */
export async function editCursorStore(
  target: StoreTarget,
  edit: (text: string) => string,
  dryRun = false,
): Promise<{ before: string; after: string; version: string }> {
  if (target.writable === false) throw new ReadOnlyStoreError(`${target.file} is read-only here`);
  const current = await readNoFollow(target.file);
  if (target.expectedVersion && current.version !== target.expectedVersion) throw new StoreChangedError();
  if (current.decodeError)
    throw new InvalidStoreError(`${target.file}: ${current.decodeError} — it is never overwritten`);
  const after = edit(current.text);
  const check = parseCursorConfig(after, target.file, target.scope);
  if (!check.valid)
    throw new InvalidStoreError(`the edit would break ${target.file} (${check.error}); nothing was written`);
  if (dryRun || after === current.text) return { before: current.text, after, version: current.version };
  const { version } = await writeAtomically({
    file: target.file,
    root: target.root,
    expectedVersion: current.version,
    content: after,
  });
  return { before: current.text, after, version };
}

/** Read, edit and atomically rewrite a hooks file (refusing symlinks, non-files and broken JSON). */
export async function editHooksFile(
  file: string,
  root: string,
  edit: (text: string) => { text: string; changed: boolean },
): Promise<{ file: string; changed: boolean }> {
  const current = await readNoFollow(file);
  if (current.decodeError) throw new InvalidStoreError(`${file}: ${current.decodeError} — it is never overwritten`);
  const result = edit(current.exists ? current.text : "");
  if (result.changed) await writeAtomically({ file, root, expectedVersion: current.version, content: result.text });
  return { file, changed: result.changed };
}
