import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { HostFacts } from "../host";

/**
 * Gemini's `resolveToRealPath`: realpath, and for a missing path the real path of its nearest existing parent
 * with the rest appended (a dangling symlink is followed through its target).
 */
function robustRealpath(p: string, visited = new Set<string>()): string {
  if (visited.has(p)) throw new Error(`symlink loop at ${p}`);
  visited.add(p);
  try {
    return fs.realpathSync(p);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "EISDIR" && code !== "ENAMETOOLONG" && code !== "ENOTDIR") throw e;
    try {
      const st = fs.lstatSync(p);
      if (st.isSymbolicLink()) return robustRealpath(path.resolve(path.dirname(p), fs.readlinkSync(p)), visited);
    } catch (le) {
      const lcode = (le as NodeJS.ErrnoException).code;
      if (lcode !== "ENOENT" && lcode !== "EISDIR" && lcode !== "ENAMETOOLONG" && lcode !== "ENOTDIR") throw le;
    }
    const parent = path.dirname(p);
    if (parent === p) return p;
    return path.join(robustRealpath(parent, visited), path.basename(p));
  }
}

/** The disk as Gemini sees it from `workspace` (its cwd). */
export function realHost(workspace: string, opts: { homeDir?: string; processCwd?: string } = {}): HostFacts {
  return {
    workspace,
    processCwd: opts.processCwd ?? workspace,
    homeDir: opts.homeDir ?? os.homedir(),
    platform: process.platform === "darwin" ? "darwin" : "linux",
    realpath(p) {
      try {
        return robustRealpath(path.resolve(p));
      } catch {
        return null;
      }
    },
    kind(p) {
      try {
        const st = fs.lstatSync(p, { throwIfNoEntry: false });
        if (!st) return "missing";
        return st.isSymbolicLink() ? "symlink" : st.isDirectory() ? "dir" : "file";
      } catch {
        return "unknown";
      }
    },
  };
}
