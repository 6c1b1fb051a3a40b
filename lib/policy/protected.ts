import type { CallFacts } from "./call";
import { isInside, resolveCallPath } from "./paths";
import { partWords, wordPath } from "./shell-paths";
import { basename } from "./shell/wrappers";
import type { Trail } from "./trail";
import type { Decision, Mode, PolicyContext } from "./types";

// Commands that read or copy a whole tree: naming an ancestor of a protected folder reaches into it.
const TREE_READERS = new Set(["rg", "find", "tar", "zip", "rsync", "scp", "du", "fd", "ag", "ack", "zstd", "7z"]);

function treeReader(core: string[]): boolean {
  const name = basename(core[0] ?? "");
  if (TREE_READERS.has(name)) return true;
  const flags = core.slice(1).filter((a) => a.startsWith("-"));
  if (name === "grep" || name === "egrep" || name === "fgrep")
    return flags.some((a) => /^-[a-zA-Z]*[rR]|^--recursive|^--dereference-recursive|^-d$/.test(a));
  if (name === "cp" || name === "chmod" || name === "chown" || name === "rm")
    return flags.some((a) => /^-[a-zA-Z]*[rRa]|^--recursive|^--archive/.test(a));
  return name === "git" && core.includes("add");
}

/**
 * The protected folder a call reads, writes or names, or null. File tools: their paths (and symlink targets);
 * searches rooted above a protected folder. Shell: every word of every part (payloads, substitutions, heredoc
 * bodies included), redirections, assignment values, relative words against cwd, `~`/`$HOME`, glob prefixes,
 * and the raw text; a tree reader (grep -r, find, tar, …) naming an ancestor reaches it too.
 */
export function protectedHit(f: CallFacts, ctx: PolicyContext): string | null {
  const list = ctx.protectedPaths ?? [];
  if (list.length === 0) return null;
  const fold = (s: string) => (ctx.caseInsensitiveFs ? s.toLowerCase() : s);
  const dirs = list.map((d) => resolveCallPath(d, f.env));
  const inside = (p: string): string | null => {
    const cands = [p];
    const link = ctx.resolveSymlink?.(p) ?? null;
    if (link) cands.push(link);
    for (const d of dirs) if (cands.some((q) => isInside(fold(q), fold(d)))) return d;
    return null;
  };
  const above = (p: string): string | null => dirs.find((d) => isInside(fold(d), fold(p))) ?? null;
  // A glob whose literal start is a prefix of a protected folder may expand into it.
  const globReaches = (prefix: string | undefined): string | null =>
    prefix === undefined ? null : (dirs.find((d) => fold(d + "/").startsWith(fold(prefix))) ?? null);

  if (f.kind === "read" || f.kind === "edit") {
    const search = /grep|glob|search|find/i.test(f.exact);
    for (const p of f.paths) {
      const hit = inside(p) ?? (search ? above(p) : null);
      if (hit) return hit;
    }
  }
  if (f.command !== null && (f.kind === "shell" || f.kind === "eval")) {
    const raw = fold(f.command);
    for (const d of dirs) {
      const spellings = [d];
      const home = resolveCallPath(f.env.home, f.env);
      if (isInside(d, home) && d !== home) {
        const rel = d.slice(home.length + 1);
        spellings.push(`~/${rel}`, `$HOME/${rel}`, `\${HOME}/${rel}`);
      }
      if (spellings.some((s) => raw.includes(fold(s)))) return d;
    }
    const parts = f.shell?.parts ?? [];
    // `cd dir && cat x` reads dir/x: relative words are resolved against every directory the command enters too.
    const envs = [f.env];
    for (const p of parts) {
      const name = basename(p.core[0] ?? "");
      const r = (name === "cd" || name === "pushd") && p.core[1] ? wordPath(p.core[1], f.env) : null;
      if (r && "path" in r) envs.push({ ...f.env, cwd: r.path });
    }
    // A word with a variable the engine cannot expand may still reach the folder: `cat "$COCKPIT_DATA/x"`,
    // `cat $D/local-credential.json`. It counts when it names the cockpit or a protected folder's own name.
    const names = dirs.map((d) => fold(d.split("/").pop() ?? "")).filter((n) => n.length >= 3);
    const mayReach = (word: string): boolean => {
      const w = fold(word);
      return (
        /cockpit/i.test(word) || /local-credential|audit-signing-key/i.test(word) || names.some((n) => w.includes(n))
      );
    };
    for (const p of parts) {
      const tree = treeReader(p.core.length ? p.core : p.argv);
      for (const w of partWords(p))
        for (const env of envs) {
          const r = wordPath(w, env);
          if (r && "unknown" in r && mayReach(w)) return dirs[0]!;
          if (!r || !("path" in r)) continue;
          const hit = inside(r.path) ?? (tree ? above(r.path) : null) ?? globReaches(r.globPrefix);
          if (hit) return hit;
        }
    }
  }
  return null;
}

/** Protected folder: allow once or deny, by a person; never remembered, never settled by a rule or mode (dont-ask: deny). */
export function protectedDecision(t: Trail, dir: string, mode: Mode): Decision {
  t.warn("protected path");
  return t.decide(
    mode === "dont-ask" ? "deny" : "ask",
    "protected-path",
    `names the cockpit's protected folder ${dir}: only a person may allow it, once`,
    "protected-resource",
    { protected: true },
  );
}
