/**
 * The file-system facts every agent's engine is handed: symlinks resolved on the real disk and the cockpit's own
 * data folder, which no agent may touch without a person.
 */
import { readlinkSync, realpathSync } from "node:fs";
import path from "node:path";
import { env } from "@/lib/config/env";

/**
 * The engine's symlink resolver on the real file system: every hop of the longest existing prefix is resolved
 * (`realpath`), the rest of the path appended as written. `ws/t/x` with `t -> /tmp` gives `/tmp/x` even when `x`
 * does not exist; a dangling link gives its target. Null when nothing along the path is a link.
 */
export function resolveSymlink(abs: string): string | null {
  const rest: string[] = [];
  let cur = path.resolve(abs);
  for (;;) {
    try {
      const real = realpathSync.native(cur);
      const full = rest.length ? path.join(real, ...rest) : real;
      return full === path.resolve(abs) ? null : full;
    } catch {
      // A dangling link: its own target, then keep resolving from there.
      try {
        const target = path.resolve(path.dirname(cur), readlinkSync(cur));
        const full = rest.length ? path.join(target, ...rest) : target;
        return full === path.resolve(abs) ? null : full;
      } catch {
        /* not a link: go up one folder */
      }
      const parent = path.dirname(cur);
      if (parent === cur) return null;
      rest.unshift(path.basename(cur));
      cur = parent;
    }
  }
}

/** The cockpit's data folder (credential, database, keys), as written and with symlinks resolved. */
export function cockpitProtectedPaths(): string[] {
  let dir: string;
  try {
    dir = env().dataDir;
  } catch {
    dir = path.resolve(process.env.COCKPIT_DATA || ".cockpit");
  }
  const out = [dir];
  try {
    const real = realpathSync(dir);
    if (real !== dir) out.push(real);
  } catch {
    // Not created yet: the lexical path is all there is to protect.
  }
  return out;
}
