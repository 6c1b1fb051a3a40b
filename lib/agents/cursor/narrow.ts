/**
 * Narrowing proofs for Cursor tokens (pure). Syntactic and conservative: an allow entry may only shrink to a token
 * whose every match (as Cursor documents allow matching) the old one matched too; a deny entry may only grow.
 * Anything the proof cannot show is refused with a reason ("revoke and add instead").
 */
import picomatch from "picomatch";
import type { CursorAction } from "./config";
import { nameGlob } from "./match";
import type { CursorToken } from "./tokens";

export type NarrowProof = { proved: true } | { proved: false; reason: string };
const YES: NarrowProof = { proved: true };
const no = (why: string): NarrowProof => ({
  proved: false,
  reason: `cannot prove narrower: ${why}; revoke and add instead`,
});

const WILD = /[*?]/;
/** Literal text before the first wildcard. */
const literalPrefix = (g: string) => g.slice(0, g.search(WILD) < 0 ? g.length : g.search(WILD));

/** Every string `inner` (a name glob) matches is matched by `outer` (shown syntactically). */
export function globCovers(outer: string, inner: string): boolean {
  if (outer === inner) return true;
  if (/^\*+$/.test(outer)) return true;
  if (!WILD.test(inner)) return nameGlob(outer).test(inner);
  // `abc*` covers any glob starting with the literal `abc`.
  const star = outer.search(WILD);
  if (star === outer.length - 1 && outer.endsWith("*")) return literalPrefix(inner).startsWith(outer.slice(0, -1));
  return false;
}

/** Path globs: `x/**` covers everything below `x/`, `**` every relative path, and literal paths by matching. */
function pathCovers(outer: string, inner: string): boolean {
  const o = outer.replace(/\/+$/, "");
  const i = inner.replace(/\/+$/, "");
  if (o === i) return true;
  const abs = (p: string) => p.startsWith("/") || p.startsWith("~");
  if (abs(o) !== abs(i)) return false;
  if (o === "**") return !abs(i);
  if (!/[*?[{]/.test(i)) return nameGlobPath(o, i);
  if (o.endsWith("/**") && !/[*?[{]/.test(o.slice(0, -3))) return i.startsWith(o.slice(0, -2));
  return false;
}

/** A literal path against a glob, read as allow reads it (picomatch, no dot-files). */
function nameGlobPath(glob: string, p: string): boolean {
  try {
    return picomatch(glob, { dot: false })(p);
  } catch {
    return false;
  }
}

function domainCovers(outer: string, inner: string): boolean {
  if (outer === "*" || outer === inner) return true;
  if (!/^\*\.[^*]+$/.test(outer)) return false;
  const suffix = outer.slice(1);
  if (/^\*\.[^*]+$/.test(inner)) return inner.slice(1).endsWith(suffix);
  return !inner.includes("*") && inner.endsWith(suffix);
}

/** Null when every call `inner` allows (documented allow matching) is allowed by `outer`; otherwise why not. */
export function tokenCovers(outer: CursorToken, inner: CursorToken): string | null {
  if (outer.kind !== inner.kind) return `${inner.kind}() is not within ${outer.kind}()`;
  switch (outer.kind) {
    case "Shell": {
      const i = inner as typeof outer;
      if (/\s/.test(i.base) || /\s/.test(outer.base)) return "a command base with spaces never allows";
      if (!globCovers(outer.base, i.base)) return `command ${i.base} is not within ${outer.base}`;
      const oa = outer.args ?? "*";
      const ia = i.args ?? "*";
      return globCovers(oa, ia) ? null : `arguments ${ia} are not within ${oa}`;
    }
    case "Read":
    case "Write": {
      const i = inner as typeof outer;
      return pathCovers(outer.pattern, i.pattern) ? null : `${i.pattern} reaches beyond ${outer.pattern}`;
    }
    case "WebFetch": {
      const i = inner as typeof outer;
      return domainCovers(outer.pattern, i.pattern) ? null : `${i.pattern} is not within ${outer.pattern}`;
    }
    case "Mcp": {
      const i = inner as typeof outer;
      if (outer.form !== "colon" || i.form !== "colon")
        return "only the documented Mcp(server:tool) form can be compared";
      if (!globCovers(outer.server, i.server)) return `server ${i.server} is not within ${outer.server}`;
      return globCovers(outer.tool!, i.tool!) ? null : `tool ${i.tool} is not within ${outer.tool}`;
    }
  }
}

/**
 * Prove `next` authorises a strict subset of `old` in the same list. Allow → deny (same token) is a narrowing too:
 * Cursor has no ask list, so "ask" is spelled "remove the allow entry" (revoke).
 */
export function isNarrowerToken(
  old: { action: CursorAction; token: CursorToken },
  next: { action: CursorAction; token: CursorToken },
): NarrowProof {
  if (old.action === "deny" && next.action === "allow") return no("deny → allow loosens the entry");
  if (old.action === "allow" && next.action === "deny") return YES;
  if (old.token.text.trim() === next.token.text.trim()) return no("the new entry is identical");
  if (old.action === "allow") {
    if (next.token.kind === "Mcp" && next.token.form !== "colon")
      return no("the new entry is not in Cursor's documented Mcp(server:tool) form");
    const why = tokenCovers(old.token, next.token);
    return why === null ? YES : no(why);
  }
  // A deny authorises less only when it still covers everything it denied before.
  const why = tokenCovers(next.token, old.token);
  return why === null ? YES : no(`a deny entry must still cover everything the old one denied (${why})`);
}
