/**
 * Where Cursor CLI keeps its files (pure: paths from the environment, no I/O).
 * Config: https://cursor.com/docs/cli/reference/configuration ("File location": `~/.cursor/cli-config.json`;
 * `CURSOR_CONFIG_DIR` "custom directory path"; `XDG_CONFIG_HOME` on Linux/BSD "uses $XDG_CONFIG_HOME/cursor/cli-config.json").
 * Hooks: https://cursor.com/docs/hooks ("Configuration": `<project>/.cursor/hooks.json`, `~/.cursor/hooks.json`).
 */
import path from "node:path";

export interface CursorEnv {
  home: string;
  /** The environment Cursor would see (defaults to none set). */
  env?: Record<string, string | undefined>;
  platform?: string;
}

export const GLOBAL_CONFIG_NAME = "cli-config.json";
export const PROJECT_CONFIG = path.join(".cursor", "cli.json");
export const HOOKS_NAME = "hooks.json";

const XDG_PLATFORMS = new Set(["linux", "freebsd", "openbsd", "netbsd", "sunos", "aix"]);

/** The global config file and which rule chose it (`CURSOR_CONFIG_DIR` first, then XDG on Linux/BSD, then `~/.cursor`). */
export function globalConfigPath(e: CursorEnv): {
  path: string;
  via: "CURSOR_CONFIG_DIR" | "XDG_CONFIG_HOME" | "home";
} {
  const env = e.env ?? {};
  if (env.CURSOR_CONFIG_DIR?.trim())
    return { path: path.join(path.resolve(env.CURSOR_CONFIG_DIR), GLOBAL_CONFIG_NAME), via: "CURSOR_CONFIG_DIR" };
  if (env.XDG_CONFIG_HOME?.trim() && XDG_PLATFORMS.has(e.platform ?? "linux") && path.isAbsolute(env.XDG_CONFIG_HOME))
    return { path: path.join(env.XDG_CONFIG_HOME, "cursor", GLOBAL_CONFIG_NAME), via: "XDG_CONFIG_HOME" };
  return { path: path.join(e.home, ".cursor", GLOBAL_CONFIG_NAME), via: "home" };
}

/**
 * Every `.cursor/cli.json` from `top` down to `cwd`, outermost first (deeper files take precedence). `top` is the git
 * root; without one only `cwd`'s own file counts. A `cwd` outside `top` also gets only its own file.
 */
export function projectConfigPaths(top: string | null, cwd: string): string[] {
  const end = path.resolve(cwd);
  const start = top ? path.resolve(top) : end;
  const rel = path.relative(start, end);
  if (rel.startsWith("..") || path.isAbsolute(rel)) return [path.join(end, PROJECT_CONFIG)];
  const dirs = [start];
  for (const part of rel ? rel.split(path.sep) : []) dirs.push(path.join(dirs.at(-1)!, part));
  return dirs.map((d) => path.join(d, PROJECT_CONFIG));
}

export const projectHooksPath = (workspace: string) => path.join(workspace, ".cursor", HOOKS_NAME);
export const userHooksPath = (home: string) => path.join(home, ".cursor", HOOKS_NAME);

/** Folders above `dir`, itself first: where a git root is looked for. */
export function ancestors(dir: string): string[] {
  const out = [path.resolve(dir)];
  for (;;) {
    const up = path.dirname(out.at(-1)!);
    if (up === out.at(-1)) return out;
    out.push(up);
  }
}
