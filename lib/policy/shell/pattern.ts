import type { ShellDialect } from "../types";

const cache = new Map<string, RegExp>();
const esc = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&");

/**
 * Compile a shell rule pattern. `*` spans anything (spaces too). A trailing ` *` is a word boundary:
 * `ls *` matches `ls` and `ls -la`, not `lsof`. Without `*`: Command Code (`prefix`) matches the command
 * and any further arguments (`git status` covers `git status --short`); Claude Code (`exact`) only the command;
 * mevedel (`glob`) is a plain whole-string glob.
 */
export function shellPatternRegExp(pattern: string, dialect: ShellDialect): RegExp {
  const key = `${dialect}\0${pattern}`;
  let re = cache.get(key);
  if (re) return re;
  let body: string;
  if (dialect !== "glob" && pattern.endsWith(" *")) {
    body = toRe(pattern.slice(0, -2)) + "(?: .*)?";
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
