import type { ShellDialect } from "../types";

const cache = new Map<string, RegExp>();
const esc = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&");

/**
 * Compile a shell rule pattern. `*` spans anything (spaces too). A trailing ` *` is a word boundary:
 * `ls *` matches `ls` and `ls -la`, not `lsof`. Without `*`: Command Code (`prefix`) matches the command
 * and any further arguments (`git status` covers `git status --short`); Claude Code (`exact`) only the command;
 * mevedel (`glob`) is Emacs's `wildcard-to-regexp` over the whole string (`*`, `?`, `[…]`), and `PREFIX:*` matches
 * PREFIX alone or followed by a space (`mevedel-permission--match-specifier`). `nocase` folds case, as Emacs's
 * default `case-fold-search` does for mevedel's deny and ask rules. Claude Code's trailing ` *` covers the bare
 * command only when it is the pattern's only wildcard.
 */
export function shellPatternRegExp(pattern: string, dialect: ShellDialect, nocase = false): RegExp {
  const key = `${dialect}\0${nocase ? 1 : 0}\0${pattern}`;
  let re = cache.get(key);
  if (re) return re;
  let body: string;
  if (dialect === "glob") {
    body = pattern.endsWith(":*") ? `${esc(pattern.slice(0, -2))}(?: .*)?` : wildcardRe(pattern);
  } else if (pattern.endsWith(" *")) {
    const head = pattern.slice(0, -2);
    // Claude Code: "A `*` at the end, with a space before it, also matches the bare command … only when the
    // trailing `*` is the rule's only wildcard: `Bash(* --help *)` matches `npm --help x` but not `npm --help`."
    body = toRe(head) + (dialect === "exact" && head.includes("*") ? " .+" : "(?: .*)?");
  } else if (dialect === "prefix" && !pattern.includes("*")) {
    body = toRe(pattern) + "(?: .*)?";
  } else {
    body = toRe(pattern);
  }
  re = new RegExp(`^${body}$`, nocase ? "si" : "s");
  if (cache.size > 10_000) cache.clear();
  cache.set(key, re);
  return re;
}

function toRe(p: string): string {
  return p.split("*").map(esc).join(".*");
}

/** Emacs `wildcard-to-regexp`: `*` any run, `?` one character, `[…]` a class (`[!…]` negated), the rest literal. */
function wildcardRe(p: string): string {
  let out = "";
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === "*") out += ".*";
    else if (c === "?") out += ".";
    else if (c === "[") {
      const close = p.indexOf("]", i + (p[i + 1] === "!" || p[i + 1] === "^" ? 3 : 2));
      if (close === -1) {
        out += "\\[";
        continue;
      }
      let cls = p.slice(i + 1, close);
      if (cls.startsWith("!")) cls = "^" + cls.slice(1);
      out += `[${cls.replace(/\\/g, "\\\\")}]`;
      i = close;
    } else out += esc(c);
  }
  return out;
}

/** Does one command string match the pattern? */
export function matchShellPattern(pattern: string, dialect: ShellDialect, command: string, nocase = false): boolean {
  return shellPatternRegExp(pattern, dialect, nocase).test(command);
}
