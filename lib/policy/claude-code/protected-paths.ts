/**
 * Claude Code's protected paths (permission-modes#protected-paths): "Writes to a small set of paths are never
 * auto-approved, except in `bypassPermissions` mode"; "`permissions.allow` rules in settings files do not
 * pre-approve protected-path writes". default/acceptEdits/plan: prompt; auto: the classifier (the cockpit has none,
 * so it asks); dontAsk: deny; bypassPermissions: allow.
 */
import { isInside } from "../paths";

/** "Protected directories" (`.claude` has its own exceptions below). */
const DIRS = [".git", ".vscode", ".idea", ".husky", ".cargo", ".devcontainer", ".yarn", ".mvn", ".claude"];

/** "Protected files". */
const FILES = new Set([
  ".gitconfig",
  ".gitmodules",
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_aliases",
  ".bash_logout",
  ".zshrc",
  ".zprofile",
  ".zshenv",
  ".zlogin",
  ".zlogout",
  ".profile",
  ".envrc",
  ".npmrc",
  ".yarnrc",
  ".yarnrc.yml",
  ".pnp.cjs",
  ".pnp.loader.mjs",
  ".pnpmfile.cjs",
  "bunfig.toml",
  ".bunfig.toml",
  ".bazelrc",
  ".bazelversion",
  ".bazeliskrc",
  ".pre-commit-config.yaml",
  "lefthook.yml",
  "lefthook.yaml",
  ".lefthook.yml",
  ".lefthook.yaml",
  "gradle-wrapper.properties",
  "maven-wrapper.properties",
  ".devcontainer.json",
  ".ripgreprc",
  "pyrightconfig.json",
  ".mcp.json",
  ".claude.json",
]);

/** Where writes under `.claude` stay ordinary ("`.claude`, with a few exceptions"). */
function claudeException(path: string, segs: string[], i: number, home: string, planDir?: string): boolean {
  const rest = segs.slice(i + 1);
  // "Claude's own git worktrees under `.claude/worktrees/`".
  if (rest[0] === "worktrees" && rest.length > 1) return true;
  // "The current session's own plan files in `~/.claude/plans/`" (or the plansDirectory).
  if (planDir && isInside(path, planDir) && path !== planDir) return true;
  const inHome = segs.slice(0, i).join("/") === home;
  // "A background session's own scratch directory at `~/.claude/jobs/<id>/tmp/`".
  if (inHome && rest[0] === "jobs" && rest[2] === "tmp" && rest.length > 3) return true;
  const md = /\.md$/i.test(path);
  // "Markdown files in the project's auto memory directory, such as `~/.claude/projects/<project>/memory/`".
  if (inHome && md && rest[0] === "projects" && rest[2] === "memory" && rest.length > 3) return true;
  // "Markdown files in a subagent memory directory, such as `.claude/agent-memory/`".
  if (md && rest[0] === "agent-memory" && rest.length > 1) return true;
  return false;
}

/**
 * Why a write to the absolute `path` is one of Claude Code's protected paths, or null. `fold` lower-cases on a
 * case-insensitive file system.
 */
export function claudeProtected(path: string, opts: { home: string; planDir?: string; fold?: boolean }): string | null {
  const p = opts.fold ? path.toLowerCase() : path;
  const home = opts.fold ? opts.home.toLowerCase() : opts.home;
  const planDir = opts.fold ? opts.planDir?.toLowerCase() : opts.planDir;
  const segs = p.split("/");
  const name = segs[segs.length - 1];
  if (FILES.has(name)) return `Claude Code's protected file ${name}`;
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i];
    // `.config/git`.
    if (s === ".config" && segs[i + 1] === "git") return "Claude Code's protected folder .config/git";
    if (!DIRS.includes(s)) continue;
    if (s === ".claude" && claudeException(p, segs, i, home, planDir)) continue;
    return `Claude Code's protected folder ${s}/`;
  }
  return null;
}
