import path from "node:path";

/**
 * What Gemini CLI looks up on the machine while it decides (symlinks, real paths, the home directory, the
 * workspace). The deciding modules never touch the file system: they ask this view, which io/host.ts builds
 * from the real disk and tests build from a table. POSIX paths only.
 */
export interface HostFacts {
  /** Gemini's workspace (its target directory, normally the cwd it was started in). */
  workspace: string;
  /** Where Gemini itself runs (`process.cwd()`): `rg` from inside it is never trusted. */
  processCwd: string;
  homeDir: string;
  /** "darwin" compares paths case-insensitively, as Gemini does on macOS. */
  platform: "linux" | "darwin";
  /** Gemini's `resolveToRealPath` (symlinks resolved, missing tails kept); null when it cannot be known. */
  realpath(p: string): string | null;
  /** `lstat`: "missing" when nothing is there, "unknown" when the cockpit cannot tell. */
  kind(p: string): "symlink" | "file" | "dir" | "missing" | "unknown";
}

/**
 * A view that knows nothing about the disk: every path might be a symlink pointing anywhere. Deciding with it
 * is never more permissive than Gemini (read-only shortcuts that depend on paths do not apply).
 */
export function unknownHost(workspace: string, homeDir = "/nonexistent-home"): HostFacts {
  return {
    workspace,
    processCwd: workspace,
    homeDir,
    platform: "linux",
    realpath: () => null,
    kind: () => "unknown",
  };
}

/** A view that treats the disk as having no symlinks at all (tests, and the differential run in a temp dir). */
export function plainHost(workspace: string, homeDir: string, processCwd = workspace): HostFacts {
  return {
    workspace,
    processCwd,
    homeDir,
    platform: "linux",
    realpath: (p) => path.resolve(p),
    kind: () => "missing",
  };
}

/** Gemini's `isSubpath` (case-insensitive on macOS). */
export function isSubpath(host: Pick<HostFacts, "platform">, parent: string, child: string): boolean {
  let p = path.resolve(parent);
  let c = path.resolve(child);
  if (host.platform === "darwin") {
    p = p.toLowerCase();
    c = c.toLowerCase();
  }
  const rel = path.relative(p, c);
  return !rel.startsWith(`..${path.sep}`) && rel !== ".." && !path.isAbsolute(rel);
}
