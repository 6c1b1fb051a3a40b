import type { ShellDialect } from "../types";

const cache = new Map<string, RegExp>();
const esc = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&");

/**
 * Compile a shell rule pattern. `*` spans anything (spaces too). A trailing ` *` is a word boundary:
 * `ls *` matches `ls` and `ls -la`, not `lsof`. Without `*`: Command Code (`prefix`) matches the command
 * and any further arguments (`git status` covers `git status --short`); Claude Code (`exact`) only the command;
 * mevedel (`glob`) is a plain whole-string glob. Claude Code's trailing ` *` covers the bare command only when it is the
 * pattern's only wildcard.
 */
export function shellPatternRegExp(pattern: string, dialect: ShellDialect): RegExp {
  const key = `${dialect}\0${pattern}`;
  let re = cache.get(key);
  if (re) return re;
  let body: string;
  if (dialect !== "glob" && pattern.endsWith(" *")) {
    const head = pattern.slice(0, -2);
    // Claude Code: "A `*` at the end, with a space before it, also matches the bare command … only when the
    // trailing `*` is the rule's only wildcard: `Bash(* --help *)` matches `npm --help x` but not `npm --help`."
    body = toRe(head) + (dialect === "exact" && head.includes("*") ? " .+" : "(?: .*)?");
  } else if (dialect === "prefix" && !pattern.includes("*")) {
    body = toRe(pattern) + "(?: .*)?";
  } else {
    body = toRe(pattern);
  }
  re = new RegExp(`^${body}$`, "s");
  if (cache.size > 10_000) cache.clear();
  cache.set(key, re);
  return re;
}

function toRe(p: string): string {
  return p.split("*").map(esc).join(".*");
}

/** Does one command string match the pattern? */
export function matchShellPattern(pattern: string, dialect: ShellDialect, command: string): boolean {
  return shellPatternRegExp(pattern, dialect).test(command);
}
