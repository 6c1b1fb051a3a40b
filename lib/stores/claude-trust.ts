/**
 * Claude Code's workspace trust (permissions#project-allow-rules-and-workspace-trust): "`permissions.allow` rules
 * and `permissions.additionalDirectories` entries in a project's `.claude/settings.json` … Claude Code applies them
 * only after you accept the workspace trust dialog for that folder … `deny` and `ask` rules aren't affected".
 * Trust is recorded in `~/.claude.json` as `projects["<path>"].hasTrustDialogAccepted`, keyed on the git repository
 * root (the main checkout's root for a worktree), or on the folder itself outside a repository. A local settings
 * file is held the same way until the folder is trusted ("Anywhere else: Claude Code holds the file's rules like
 * project settings"), except in the configuration home. Unknown (no file, unreadable, no entry) counts as untrusted.
 */
import { readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";

export interface ClaudeTrust {
  trusted: boolean;
  /** The `projects` key Claude Code would look up. */
  key: string;
  /** Why the folder counts as untrusted (for the trace), or null when trusted. */
  why: string | null;
}

/** The folder Claude Code keys trust on: the repository root (main checkout for a worktree), else the folder. */
export function trustKey(workspace: string): string {
  let dir = path.resolve(workspace);
  for (;;) {
    const dotGit = path.join(dir, ".git");
    try {
      const st = statSync(dotGit);
      if (st.isDirectory()) return dir;
      if (st.isFile()) {
        // A worktree: `gitdir: /main/.git/worktrees/<name>` → the main checkout's root.
        const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, "utf8"));
        const gitdir = m ? path.resolve(dir, m[1].trim()) : null;
        const i = gitdir ? gitdir.lastIndexOf(`${path.sep}.git${path.sep}worktrees${path.sep}`) : -1;
        return gitdir && i > 0 ? gitdir.slice(0, i) : dir;
      }
    } catch {
      /* no .git here */
    }
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve(workspace);
    dir = parent;
  }
}

const cache = new Map<string, { stamp: string; projects: Record<string, unknown> | null }>();

/** The `projects` map of `~/.claude.json`, re-read only when the file's stat changes; null when unreadable. */
function projectsOf(file: string): Record<string, unknown> | null {
  let stamp: string;
  try {
    const st = statSync(file);
    stamp = `${st.mtimeMs}:${st.size}:${st.ino}`;
  } catch {
    return null;
  }
  const hit = cache.get(file);
  if (hit && hit.stamp === stamp) return hit.projects;
  let projects: Record<string, unknown> | null = null;
  try {
    const data = JSON.parse(readFileSync(file, "utf8")) as { projects?: unknown };
    if (data && typeof data.projects === "object" && data.projects !== null && !Array.isArray(data.projects))
      projects = data.projects as Record<string, unknown>;
  } catch {
    projects = null;
  }
  cache.set(file, { stamp, projects });
  if (cache.size > 16) cache.delete(cache.keys().next().value!);
  return projects;
}

/** Has the person accepted Claude Code's trust dialog for this workspace (as `~/.claude.json` records it)? */
export function claudeTrust(workspace: string, home: string): ClaudeTrust {
  const key = trustKey(workspace);
  const file = path.join(home, ".claude.json");
  const projects = projectsOf(file);
  if (!projects) return { trusted: false, key, why: `${file} has no trust record for ${key}` };
  const candidates = [key];
  try {
    const real = realpathSync(key);
    if (real !== key) candidates.push(real);
  } catch {
    /* a folder that does not exist yet */
  }
  for (const k of candidates) {
    const entry = projects[k] as { hasTrustDialogAccepted?: unknown } | undefined;
    if (entry && typeof entry === "object" && entry.hasTrustDialogAccepted === true)
      return { trusted: true, key, why: null };
  }
  return {
    trusted: false,
    key,
    why: `the workspace trust dialog was not accepted for ${key} (projects["${key}"].hasTrustDialogAccepted in ${file})`,
  };
}
