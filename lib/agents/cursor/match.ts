/**
 * How one Cursor token matches one call (https://cursor.com/docs/cli/reference/permissions, "Pattern matching").
 * Allow matches as written and no further; deny also matches the readings the docs leave open and reports them as
 * `inferred`, so a deny the cockpit infers is visible as such. Pure: no I/O.
 */
import picomatch from "picomatch";
import type { ShellPart } from "@/lib/policy";
import type { CursorToken } from "./tokens";

/** `matched` with `inferred` set when only an undocumented reading matched (deny side only). */
export type Match = { matched: false } | { matched: true; inferred: string | null };
const NO: Match = { matched: false };
const YES: Match = { matched: true, inferred: null };
const inferred = (why: string): Match => ({ matched: true, inferred: why });

const globCache = new Map<string, RegExp>();
/** Cursor's wildcards on names (`*`, `**`, `?`), anchored; every other character is literal. */
export function nameGlob(pattern: string): RegExp {
  let re = globCache.get(pattern);
  if (!re) {
    const body = pattern
      .split(/(\*+|\?)/)
      .map((piece) => (piece.startsWith("*") ? "[\\s\\S]*" : piece === "?" ? "[\\s\\S]" : escape(piece)))
      .join("");
    re = new RegExp(`^${body}$`);
    if (globCache.size > 2048) globCache.clear();
    globCache.set(pattern, re);
  }
  return re;
}
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const basename = (s: string) => s.slice(s.lastIndexOf("/") + 1);

/** Text of a part after its first word, as the agent typed it (quotes kept). */
function rawArgs(part: ShellPart): string {
  const m = /^\s*(?:"(?:[^"\\]|\\.)*"|'[^']*'|\S)+\s*/.exec(part.text);
  return m ? part.text.slice(m[0].length).trim() : "";
}

/**
 * `Shell(base)` / `Shell(base:args)` against one simple command. Allow: the literal first word against `base`, and
 * `args` against both the unquoted and the typed argument text (a command must satisfy both readings). Deny: either
 * reading, and also the command with `VAR=…` prefixes and wrappers stripped, its basename, a base with spaces as a
 * word prefix (all inferred).
 */
export function matchShellPart(
  token: Extract<CursorToken, { kind: "Shell" }>,
  part: ShellPart,
  forDeny: boolean,
): Match {
  const argsOk = (words: string[], raw: string | null, both: boolean) => {
    if (token.args === null) return true;
    const re = nameGlob(token.args);
    const joined = re.test(words.join(" "));
    if (raw === null) return joined;
    return both ? joined && re.test(raw) : joined || re.test(raw);
  };
  const baseWords = token.base.split(/\s+/).filter(Boolean);
  if (baseWords.length === 1) {
    const re = nameGlob(token.base);
    const argv = part.argv;
    if (argv.length && re.test(argv[0]) && argsOk(argv.slice(1), rawArgs(part), !forDeny)) return YES;
    if (!forDeny) return NO;
    for (const [words, why] of [
      [part.core, "matched after stripping `VAR=` prefixes and wrappers (sudo, timeout, env, …)"],
      [argv.length ? [basename(argv[0]), ...argv.slice(1)] : [], "matched the command's basename"],
      [
        part.core.length ? [basename(part.core[0]), ...part.core.slice(1)] : [],
        "matched the unwrapped command's basename",
      ],
    ] as const) {
      if (words.length && re.test(words[0]) && argsOk(words.slice(1), null, false)) return inferred(why);
    }
    return NO;
  }
  if (!forDeny) return NO;
  for (const words of [part.argv, part.core]) {
    if (words.length < baseWords.length) continue;
    if (baseWords.every((w, k) => nameGlob(w).test(words[k])) && argsOk(words.slice(baseWords.length), null, false))
      return inferred("a command base with spaces matched as a word prefix");
  }
  return NO;
}

export interface PathEnv {
  workspaceRoot: string;
  home: string;
}

const pathCache = new Map<string, (p: string) => boolean>();
function pm(pattern: string, dot: boolean): (p: string) => boolean {
  const key = `${dot ? 1 : 0}${pattern}`;
  let fn = pathCache.get(key);
  if (!fn) {
    try {
      fn = picomatch(pattern, { dot });
    } catch {
      fn = () => false;
    }
    if (pathCache.size > 2048) pathCache.clear();
    pathCache.set(key, fn);
  }
  return fn;
}

const stripSlash = (p: string) => (p.length > 1 ? p.replace(/\/+$/, "") : p);

/** Path relative to the workspace, or null when `abs` is outside it. */
export function relativeToWorkspace(abs: string, root: string): string | null {
  const r = stripSlash(root);
  if (abs === r) return "";
  const prefix = r === "/" ? "/" : `${r}/`;
  return abs.startsWith(prefix) ? abs.slice(prefix.length) : null;
}

/**
 * `Read(pathOrGlob)` / `Write(pathOrGlob)` against an absolute, normalised path. Documented: relative patterns are
 * scoped to the workspace, absolute ones name absolute paths. Deny also tries dot-files, any depth, everything below
 * a named folder and `~` as home (inferred).
 */
export function matchPath(
  token: Extract<CursorToken, { kind: "Read" | "Write" }>,
  abs: string,
  env: PathEnv,
  forDeny: boolean,
): Match {
  let pattern = stripSlash(token.pattern);
  if (pattern.startsWith("./")) pattern = pattern.slice(2);
  const home = pattern === "~" || pattern.startsWith("~/");
  const absolute = pattern.startsWith("/");
  const rel = relativeToWorkspace(abs, env.workspaceRoot);
  if (!home) {
    const subject = absolute ? abs : rel;
    if (subject !== null && subject !== "" && pm(pattern, false)(subject)) return YES;
  }
  if (!forDeny) return NO;
  const full = home ? stripSlash(env.home + pattern.slice(1)) : pattern;
  const subject = home || absolute ? abs : rel;
  if (subject === null || subject === "") return NO;
  const tries: [string, string][] = [[full, "matched a dot-file (dot-file handling is undocumented)"]];
  tries.push([`${full}/**`, "matched a path below the named folder"]);
  if (!home && !absolute && !full.startsWith("**/")) {
    tries.push([`**/${full}`, "matched at a deeper level of the workspace (relative depth is undocumented)"]);
    tries.push([`**/${full}/**`, "matched below a folder of that name at a deeper level"]);
  }
  for (const [glob, why] of tries)
    if (pm(glob, true)(subject)) return inferred(home ? `\`~\` read as home; ${why}` : why);
  return NO;
}

/** Host of a URL or bare domain, lower-cased, without port or trailing dot; null when there is none. */
export function hostOf(urlOrHost: string): string | null {
  const s = urlOrHost.trim();
  try {
    const u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(s) ? s : `https://${s}`);
    return u.hostname.replace(/\.$/, "").toLowerCase() || null;
  } catch {
    return null;
  }
}

function domainMatch(pattern: string, host: string): boolean {
  if (pattern === "*") return true;
  if (/^\*\.[^*]+$/.test(pattern)) return host.endsWith(pattern.slice(1));
  return host === pattern;
}

/**
 * `WebFetch(domainOrPattern)`: `*` every domain, `*.example.com` its subdomains, `example.com` that domain only.
 * Deny also covers the apex of `*.example.com`, other wildcards as globs, and URL-shaped patterns by host (inferred).
 */
export function matchDomain(token: Extract<CursorToken, { kind: "WebFetch" }>, host: string, forDeny: boolean): Match {
  const p = token.pattern;
  if (!/[/:]/.test(p) && domainMatch(p, host)) return YES;
  if (!forDeny) return NO;
  if (/^\*\.[^*]+$/.test(p) && host === p.slice(2)) return inferred("`*.domain` also read as the domain itself");
  if (/[/:]/.test(p)) {
    const h = hostOf(p.replace(/^\*\./, "wildcard-placeholder."));
    const pat = h?.startsWith("wildcard-placeholder.") ? `*.${h.slice("wildcard-placeholder.".length)}` : h;
    if (pat && domainMatch(pat, host)) return inferred("a URL-shaped pattern compared by its host");
  }
  if (p.includes("*") && nameGlob(p).test(host)) return inferred("a wildcard Cursor does not document read as a glob");
  return NO;
}

/**
 * `Mcp(server:tool)` with `*` wildcards. When the call's server is unknown (Cursor's hook payload names only the tool),
 * allow needs `*` for the server; deny matches whatever the server (inferred). Only the documented colon form allows.
 */
export function matchMcp(
  token: Extract<CursorToken, { kind: "Mcp" }>,
  server: string | null,
  tool: string,
  forDeny: boolean,
): Match {
  const toolOk = token.tool === null || nameGlob(token.tool).test(tool);
  if (!forDeny) {
    if (token.form !== "colon" || !toolOk) return NO;
    if (server === null) return token.server === "*" ? YES : NO;
    return nameGlob(token.server).test(server) ? YES : NO;
  }
  if (!toolOk) return NO;
  const notes: string[] = [];
  if (token.form === "comma") notes.push("the undocumented `Mcp(server, tool)` spelling");
  if (token.form === "server") notes.push("`Mcp(server)` read as every tool of the server");
  if (server === null) {
    if (token.server !== "*") notes.push("the call's server is unknown, so any server counts");
  } else if (!nameGlob(token.server).test(server)) return NO;
  return notes.length ? inferred(`matched through ${notes.join("; ")}`) : YES;
}
