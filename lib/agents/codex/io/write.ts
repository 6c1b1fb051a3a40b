/**
 * Writes for the Codex stores through the cockpit's one atomic writer (lib/stores/atomic-write: compare-and-swap
 * on the version the edit was computed from, temp file + rename, no symlinks below the root). A failed write
 * leaves the old file as it was.
 */
import path from "node:path";
import { readNoFollow, writeAtomically } from "@/lib/stores/atomic-write";
import { appendAllowPrefixRule } from "../remember";

export interface CodexWrite {
  file: string;
  /** The folder below which no component may be a symlink (CODEX_HOME, or the project folder). */
  root: string;
  /** The version the new content was computed from (`CodexStoreFile.version`, "missing" to create). */
  expectedVersion: string;
  content: string;
}

export async function writeCodexFile(w: CodexWrite): Promise<{ version: string }> {
  return writeAtomically({ file: w.file, root: w.root, expectedVersion: w.expectedVersion, content: w.content });
}

/**
 * What Codex's "don't ask again" does: append `prefix_rule(pattern=[…], decision="allow")` to
 * `$CODEX_HOME/rules/default.rules` unless the identical line is there. Returns whether the file changed.
 */
export async function appendCodexAmendment(
  codexHome: string,
  prefix: readonly string[],
): Promise<{ file: string; changed: boolean }> {
  const file = path.join(codexHome, "rules", "default.rules");
  const current = await readNoFollow(file);
  const next = appendAllowPrefixRule(current.exists ? current.text : "", prefix);
  if (next === undefined) return { file, changed: false };
  await writeAtomically({ file, root: codexHome, expectedVersion: current.version, content: next });
  return { file, changed: true };
}
