/**
 * Claude Code's critical paths for `rm` and `rmdir` (permission-modes#critical-paths): removals no allow rule and
 * no mode approves. Default, acceptEdits, plan, auto and bypassPermissions ask; dontAsk denies; a deny rule still
 * denies first.
 */
import type { CallFacts } from "../call";
import { isInside, normalizeAbs, resolveCallPath, type PathEnv } from "../paths";
import { basename } from "../shell/wrappers";
import type { PolicyContext, ShellPart } from "../types";
import { workingDirs } from "./bash";

/**
 * "A shell variable followed by one common top-level directory name, such as `mnt`, `tmp`, `usr`, or `Users`": the
 * docs give examples only, so every usual top-level name on Linux and macOS counts.
 */
const TOP_LEVEL = new Set([
  "bin",
  "boot",
  "dev",
  "etc",
  "home",
  "lib",
  "lib32",
  "lib64",
  "libx32",
  "media",
  "mnt",
  "opt",
  "proc",
  "root",
  "run",
  "sbin",
  "snap",
  "srv",
  "sys",
  "tmp",
  "usr",
  "var",
  "data",
  "Users",
  "Applications",
  "Library",
  "System",
  "Volumes",
  "private",
  "cores",
  "nix",
]);

const VAR = String.raw`\$(?:\{[A-Za-z_][A-Za-z0-9_]*\}|[A-Za-z_][A-Za-z0-9_]*|[0-9@*#]|\{[0-9@*#]\})`;
// `"$DIR"/*`, `$1/`, `${X}/*/x`: a glob or trailing slash directly under an (unguarded) variable.
const UNDER_VAR = new RegExp(String.raw`^${VAR}/(\*|$)`);
const VAR_TOP = new RegExp(String.raw`^${VAR}/([A-Za-z]+)/?$`);
const ONLY_SUBST = /^(\$\([\s\S]*\)|`[\s\S]*`)$/;
const TRAILING_SUBST = /(\$\([^()]*\)|`[^`]*`)+$/;
const GLOB = /[*?[]/;

function rmTargets(core: string[]): { recursive: boolean; targets: string[] } | null {
  const name = basename(core[0] ?? "");
  if (name !== "rm" && name !== "rmdir") return null;
  let recursive = false;
  let opts = true;
  const targets: string[] = [];
  for (const a of core.slice(1)) {
    if (opts && a === "--") opts = false;
    else if (opts && a.startsWith("--")) recursive ||= a === "--recursive";
    else if (opts && a.startsWith("-") && a.length > 1) recursive ||= /[rR]/.test(a);
    else targets.push(a);
  }
  return { recursive, targets };
}

/** Variables the command assigns from a command substitution (`D=$(pwd); rm -rf "$D"`). */
function substitutedVars(parts: ShellPart[]): Set<string> {
  const out = new Set<string>();
  for (const p of parts)
    for (const w of [...p.assignments, ...(p.core.length === 0 ? p.argv : [])]) {
      const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(w);
      if (m && /\$\(|`/.test(m[2])) out.add(m[1]);
    }
  return out;
}

/** Is `p` a critical path for a removal (the root, a top-level folder, home, the working folders or their parents)? */
function criticalPath(p: string, roots: string[], home: string): string | null {
  if (p === "/") return "the file-system root";
  if (p.split("/").length === 2) return `the top-level folder ${p}`;
  if (p === home) return "your home directory";
  if (isInside(home, p)) return `${p}, which holds your home directory`;
  for (const r of roots)
    if (isInside(r, p)) return p === r ? `the working directory ${p}` : `${p}, a parent of the working directory`;
  return null;
}

/** The first critical-path removal in the command, described, or null. */
export function criticalRemoval(f: CallFacts, ctx: PolicyContext): string | null {
  const a = f.shell;
  if (!a) return null;
  const env: PathEnv = f.env;
  const home = resolveCallPath(ctx.home, env);
  const work = [...new Set([env.cwd, resolveCallPath(ctx.workspaceRoot, env)])];
  const additional = workingDirs(ctx).slice(1);
  const fromSubst = substitutedVars(a.parts);
  let cur: string | null = env.cwd;
  let cdSeen = false;
  for (const p of a.parts) {
    const core = p.core.length ? p.core : p.argv;
    if (p.origin === "top" && p.argv[0] === "cd") {
      const t = p.argv[1];
      cur =
        t === undefined
          ? home
          : t === "-" || /[$`*?[]/.test(t)
            ? null
            : resolveCallPath(t, { ...env, cwd: cur ?? env.cwd });
      cdSeen = true;
      continue;
    }
    const rm = rmTargets(core);
    if (!rm) continue;
    const here = p.origin === "payload" ? env.cwd : cur;
    for (const raw of rm.targets) {
      const why = criticalTarget(raw, rm.recursive, here, cdSeen && p.origin === "top");
      if (why) return `${basename(core[0])} ${raw}: ${why}`;
    }
  }
  return null;

  function criticalTarget(raw: string, recursive: boolean, here: string | null, afterCd: boolean): string | null {
    // "A target that is only backslashes": Git Bash reads it as the drive's root.
    if (/^\\+$/.test(raw)) return "a target of only backslashes (a drive root in Git Bash)";
    if (ONLY_SUBST.test(raw)) return recursive ? "the target is only a command substitution's output" : null;
    let t = raw.replace(/^\$\{HOME\}|^\$HOME(?![A-Za-z0-9_])/, "~");
    // "A trailing command substitution after a critical path": check what remains if it expands empty.
    if (TRAILING_SUBST.test(t) && !ONLY_SUBST.test(t)) {
      const rest = t.replace(TRAILING_SUBST, "");
      const r = criticalTarget(rest || "/", recursive, here, afterCd);
      if (r) return `${r} (if the substitution expands empty)`;
    }
    if (/\$\{[A-Za-z_][A-Za-z0-9_]*:\?/.test(t)) {
      // `"${DIR:?}"/*` is guarded against an empty variable; a variable from a substitution still counts.
      const m = /\$\{([A-Za-z_][A-Za-z0-9_]*):\?/.exec(t);
      return m && fromSubst.has(m[1]) ? `$${m[1]} is assigned from a command substitution` : null;
    }
    if (UNDER_VAR.test(t)) return "a glob or trailing slash under a variable (a removal from the root if it is empty)";
    const top = VAR_TOP.exec(t);
    if (top && TOP_LEVEL.has(top[1])) return `a variable followed by /${top[1]} (removes /${top[1]} if it is empty)`;
    for (const v of fromSubst)
      if (new RegExp(String.raw`\$\{?${v}(?![A-Za-z0-9_])`).test(t))
        return `$${v} is assigned from a command substitution`;
    if (/[$`]/.test(t)) return null; // another expansion: not on the documented list
    const g = t.search(GLOB);
    if (g !== -1) {
      // A glob empties its literal folder: critical when that folder is critical, or is (a parent of) an
      // additional working directory ("only when the removal is a glob under one of them").
      if (/\/\*\/$/.test(t) || (/\/\*$/.test(t) && (GLOB.test(t.slice(0, -2)) || afterCd)))
        return "a target ending in /* or /*/ whose reach cannot be known before it runs";
      const cut = t.lastIndexOf("/", g);
      const lit = cut === -1 ? "." : cut === 0 ? "/" : t.slice(0, cut);
      if (here === null && !lit.startsWith("/") && !lit.startsWith("~"))
        return "a glob under a folder that cannot be traced";
      const dir = normalizeAbs(resolveCallPath(lit, { ...env, cwd: here ?? env.cwd }));
      const c = criticalPath(dir, work, home);
      if (c) return `a glob under ${c}`;
      for (const d of additional)
        if (isInside(d, dir))
          return dir === d
            ? `a glob under the additional directory ${d}`
            : `a glob under ${dir}, a parent of the additional directory ${d}`;
      return null;
    }
    if (here === null && !t.startsWith("/") && !t.startsWith("~"))
      return /^\.\.?(\/|$)/.test(t) ? "removes a folder that cannot be traced" : null;
    const p = normalizeAbs(resolveCallPath(t, { ...env, cwd: here ?? env.cwd }));
    return criticalPath(p, work, home);
  }
}
