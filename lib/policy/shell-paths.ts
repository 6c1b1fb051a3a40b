import type { CallFacts } from "./call";
import { resolveCallPath, type PathEnv } from "./paths";
import { basename } from "./shell/wrappers";
import type { ShellPart } from "./types";

/** A shell word read as a path: resolved, unknown (an expansion the engine cannot evaluate), or not a path. */
export type WordPath = { path: string; globPrefix?: string } | { unknown: string } | null;

const GLOB = /[*?[\]{}]/;

/**
 * Resolve one shell word as a path against cwd: `--opt=value` keeps the value, `~` and `$HOME`/`${HOME}` expand
 * to home, a glob keeps its literal directory prefix, any other expansion is unknown. Options are not paths.
 */
export function wordPath(word: string, env: PathEnv): WordPath {
  let w = word;
  const opt = /^--?[\w-]+=(.*)$/s.exec(w);
  if (opt) w = opt[1];
  else if (w.startsWith("-") && w !== "-") return null;
  if (w === "" || w === "-") return null;
  w = w.replace(/^\$\{HOME\}|^\$HOME(?![A-Za-z0-9_])/, env.home);
  if (/[$`]/.test(w)) return { unknown: word };
  const g = w.search(GLOB);
  if (g !== -1) {
    // The glob's literal start, resolved (`~/.cock*` → `/home/u/.cock`): anything it can match begins with it.
    const lit = w.slice(0, g);
    const globPrefix =
      lit.endsWith("/") || lit === "" ? resolveCallPath(lit || ".", env) + "/" : resolveCallPath(lit, env);
    const cut = w.lastIndexOf("/", g);
    w = cut === -1 ? "." : cut === 0 ? "/" : w.slice(0, cut);
    return { path: resolveCallPath(w, env), globPrefix: globPrefix.replace(/^\/\/+/, "/") };
  }
  return { path: resolveCallPath(w, env) };
}

/** Words of a part that may name files: arguments, a program given by path, assignment values, redirection targets. */
export function partWords(p: ShellPart): string[] {
  const out: string[] = [];
  const argv = p.core.length ? p.core : p.argv;
  if (argv[0]?.includes("/")) out.push(argv[0]);
  out.push(...argv.slice(1));
  for (const a of p.assignments) out.push(a.slice(a.indexOf("=") + 1));
  out.push(...p.writes);
  return out;
}

/** Literal resources of the command's own parts (top level and substitutions): what a read-only command touches. */
export function shellResourcePaths(f: CallFacts): { paths: string[]; unknown: string[] } {
  const paths: string[] = [];
  const unknown: string[] = [];
  for (const p of f.shell?.parts ?? []) {
    if (p.origin === "payload") continue;
    const name = basename(p.core[0] ?? p.argv[0] ?? "");
    // `echo`/`printf` print their words; they do not open them.
    const words = name === "echo" || name === "printf" ? p.writes : partWords(p);
    for (const w of words) {
      const r = wordPath(w, f.env);
      if (!r) continue;
      if ("path" in r) paths.push(r.path);
      else unknown.push(r.unknown);
    }
  }
  return { paths, unknown };
}
