import picomatch from "picomatch";
import type { Dialect, RuleSource } from "./types";

/** Where relative pieces of a path rule and a call resolve. */
export interface PathEnv {
  workspaceRoot: string;
  cwd: string;
  home: string;
}

const trimSlash = (p: string) => (p.length > 1 ? p.replace(/\/+$/, "") || "/" : p);

/** Lexical normalisation of an absolute POSIX path: `.` and empty segments dropped, `..` folded (never above `/`). */
export function normalizeAbs(p: string): string {
  const out: string[] = [];
  for (const seg of p.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  return "/" + out.join("/");
}

/** Parent directory of an absolute path (`/` stays `/`). */
export function dirnameAbs(p: string): string {
  const i = p.lastIndexOf("/");
  return i <= 0 ? "/" : p.slice(0, i);
}

/** Absolute, normalised path of a call argument (`~` expanded, relative to cwd, trailing slash removed). */
export function resolveCallPath(p: string, env: PathEnv): string {
  let s = p;
  if (s === "~" || s.startsWith("~/")) s = env.home + s.slice(1);
  return normalizeAbs(s.startsWith("/") ? s : `${env.cwd}/${s}`);
}

/** Is `p` equal to or below `dir`? */
export function isInside(p: string, dir: string): boolean {
  const d = trimSlash(dir);
  return p === d || p.startsWith(d === "/" ? "/" : d + "/");
}

/**
 * Absolute glob for a path rule, gitignore-style anchors (the dialect's `paths`):
 * `//x` filesystem root, `~/x` home, `/x` the source's base (Command Code: workspace root; Claude Code: settings
 * source folder, its local settings and session rules: cwd; mevedel: absolute), `./x` cwd (Command Code: workspace
 * root), `x` without a slash at any depth (mevedel: under the workspace root). A relative `x/y` is any depth for
 * deny/ask and anchored at cwd (Claude Code) / any depth under the root (Command Code) for allow, so allow never
 * reaches further than written.
 */
export function ruleGlob(
  pattern: string,
  dialect: Dialect,
  source: RuleSource,
  env: PathEnv,
  forAllow: boolean,
): string {
  const a = dialect.paths;
  let p = trimSlash(pattern.trim());
  if (p.startsWith("//")) return trimSlash(p.slice(1));
  if (p === "~" || p.startsWith("~/")) return trimSlash(env.home + p.slice(1));
  const relativeRoot = a.relativeAt === "cwd" ? env.cwd : env.workspaceRoot;
  if (p.startsWith("/")) {
    if (a.slash === "absolute") return p;
    // Claude Code: local settings and session rules anchor `/x` at the session's primary working directory
    // ("Local settings rules anchor at the session's primary working directory, not at the repository root").
    if (a.cwdAnchored?.(source)) return join(env.cwd, p.slice(1));
    return join(source.base ?? env.workspaceRoot, p.slice(1));
  }
  if (p.startsWith("./")) {
    p = p.slice(2);
    return join(relativeRoot, p);
  }
  if (a.relative === "literal") return join(env.workspaceRoot, p);
  if (!forAllow) return "**/" + p;
  if (a.relativeAt === "cwd" && p.includes("/")) return join(env.cwd, p);
  return join(relativeRoot, "**/" + p);
}

function join(dir: string, rest: string): string {
  const d = trimSlash(dir);
  return rest ? (d === "/" ? "/" + rest : `${d}/${rest}`) : d;
}

type Matcher = (path: string) => boolean;
const cache = new Map<string, Matcher>();

/** Compiled matcher for an absolute glob (or `**​/x` any-depth glob). Dot files match; `nocase` folds case. */
export function globMatcher(glob: string, nocase: boolean, literalFallback?: string): Matcher {
  const key = `${nocase ? 1 : 0}${literalFallback === undefined ? "" : "L"}${glob}`;
  let m = cache.get(key);
  if (m) return m;
  const rel = glob.startsWith("/") ? glob.slice(1) : glob;
  let re: RegExp;
  try {
    re = picomatch.makeRe(rel, { dot: true, nocase });
  } catch {
    // An invalid glob never matches rather than matching everything; with a literal fallback (Claude Code deny/ask)
    // it still guards that exact path.
    const lit = literalFallback?.replace(/^\/+/, "");
    re = lit ? new RegExp(`^${lit.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`, nocase ? "i" : "") : /(?!)/;
  }
  const prefix = literalPrefix(rel);
  const lowered = nocase ? prefix.toLowerCase() : prefix;
  // `x/**` also matches `x` itself (picomatch does): the shortcut admits the prefix without its trailing slash.
  const bare = lowered.endsWith("/") ? lowered.slice(0, -1) : null;
  // Cheap literal-prefix test first: most rules are anchored and most paths miss them. Never stricter or looser
  // than the regex (properties.test.ts compares the two on generated globs and paths).
  m = (path: string) => {
    const r = path.startsWith("/") ? path.slice(1) : path;
    if (lowered) {
      const c = nocase ? r.toLowerCase() : r;
      if (!c.startsWith(lowered) && c !== bare) return false;
    }
    return re.test(r);
  };
  if (cache.size > 20_000) cache.clear();
  cache.set(key, m);
  return m;
}

function literalPrefix(glob: string): string {
  // Everything picomatch may treat specially ends the literal part, backslash escapes included.
  const i = glob.search(/[*?[\]{}()!+@\\]/);
  return i === -1 ? glob : glob.slice(0, i);
}

/** Every ancestor of an absolute path, nearest first (gitignore: a matched directory covers its contents). */
export function ancestors(p: string): string[] {
  const out: string[] = [];
  let cur = p;
  while (cur !== "/" && cur.includes("/")) {
    cur = dirnameAbs(cur);
    out.push(cur);
  }
  return out;
}
