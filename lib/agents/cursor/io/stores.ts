/**
 * Listing Cursor CLI stores from disk (I/O; paths and environment are injected). Each file is read with the project's
 * bounded, no-FIFO reader; a broken file is listed invalid with its reason and never written.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { readStoreBytes } from "@/lib/stores/read-store";
import { parseCursorConfig, type CursorScope, type CursorStore } from "../config";

export type { CursorStore };
import { ancestors, globalConfigPath, projectConfigPaths, type CursorEnv } from "../paths";

export interface CursorStoreOptions extends CursorEnv {
  /** The cockpit's workspace. */
  workspace: string;
  /** Where Cursor runs (default: the workspace). */
  cwd?: string;
}

/** The nearest folder at or above `dir` holding `.git` (a folder or a worktree's file), or null. */
export async function findGitRoot(dir: string): Promise<string | null> {
  for (const d of ancestors(dir)) {
    try {
      await fs.lstat(path.join(d, ".git"));
      return d;
    } catch {
      // keep looking upwards
    }
  }
  return null;
}

const inside = (file: string, dir: string) => {
  const rel = path.relative(dir, file);
  return !!rel && !rel.startsWith("..") && !path.isAbsolute(rel);
};

/** Read one store. */
export async function readCursorStore(file: string, scope: CursorScope, root: string): Promise<CursorStore> {
  const bytes = await readStoreBytes(file);
  const kind = scope === "global" ? "cli-config" : "cli";
  const base = { path: file, scope, kind, exists: bytes.exists, version: bytes.version, root } as const;
  if (bytes.decodeError)
    return {
      ...base,
      valid: false,
      error: bytes.decodeError,
      strictJson: false,
      definesAllow: false,
      rules: [],
      warnings: [],
      writable: false,
      readOnlyReason: "invalid store",
    };
  const parsed = parseCursorConfig(bytes.text, file, scope);
  const writable = parsed.valid && inside(file, root);
  return {
    ...base,
    valid: parsed.valid,
    ...(parsed.error ? { error: parsed.error } : {}),
    strictJson: parsed.strictJson,
    definesAllow: parsed.definesAllow,
    rules: parsed.rules,
    warnings: parsed.warnings,
    writable,
    ...(writable ? {} : { readOnlyReason: parsed.valid ? `outside ${root}` : "invalid store" }),
  };
}

/**
 * Every store Cursor reads for `cwd`, outermost first: the global cli-config.json, then each `.cursor/cli.json` from
 * the git root down to `cwd`. Missing files are listed too (empty, version "missing"), so an add can create them.
 */
export async function loadCursorStores(o: CursorStoreOptions): Promise<CursorStore[]> {
  const workspace = path.resolve(o.workspace);
  const cwd = path.resolve(o.cwd ?? workspace);
  const global = globalConfigPath(o).path;
  const gitRoot = await findGitRoot(cwd);
  const projects = projectConfigPaths(gitRoot ?? (inside(cwd, workspace) ? workspace : null), cwd);
  const globalRoot = inside(global, o.home) ? o.home : path.dirname(path.dirname(global));
  return Promise.all([
    readCursorStore(global, "global", globalRoot),
    ...projects.map((f) =>
      readCursorStore(f, "workspace", inside(f, workspace) ? workspace : path.dirname(path.dirname(f))),
    ),
  ]);
}
