/**
 * Claude Code's own view of one simple command for allow rules (permissions page, "Wrappers"): the documented
 * wrappers and the documented safe environment assignments are stripped, nothing else. Deny and ask rules see
 * through far more (lib/policy/match.ts `shellViews`); this is the conservative side.
 */
import type { ShellPart } from "../types";

/**
 * "The stripped wrappers are `timeout`, `time`, `nice`, `nohup`, and `stdbuf`, plus the shell builtins `command`
 * and `builtin`, and zsh's `noglob`." (permissions#process-wrappers). Bare `xargs` is handled apart.
 */
const WRAPPERS = new Set(["timeout", "time", "nice", "nohup", "stdbuf", "command", "builtin", "noglob"]);

/**
 * "Claude Code also strips a leading assignment of certain known-safe environment variables, so `Bash(npm test *)`
 * matches `NODE_ENV=test npm test`" (permissions); acceptEdits names `LANG=C` and `NO_COLOR=1` (permission-modes).
 * The full list is not published: only the documented names count, any other assignment stops allow rules.
 */
export const SAFE_ENV = new Set(["NODE_ENV", "LANG", "NO_COLOR"]);

/**
 * "Exec wrappers such as `watch`, `setsid`, `ionice`, and `flock` can't be auto-approved by a prefix rule like
 * `Bash(watch *)` … The same applies to `find` with `-exec` or `-delete`" (permissions#process-wrappers).
 */
const EXEC_WRAPPERS = new Set(["watch", "setsid", "ionice", "flock"]);
const FIND_EXEC = /^-(exec|execdir|ok|okdir|delete)$/;

const ASSIGN = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s;

/** Options (with the number of words each takes) that each wrapper may carry before the command. */
function wrapperArgs(name: string, argv: string[], i: number): number | null {
  let j = i + 1;
  const opt = (a: string) => a.startsWith("-") && a !== "-";
  switch (name) {
    case "timeout":
      while (j < argv.length && opt(argv[j])) {
        const a = argv[j];
        if (a === "--") {
          j++;
          break;
        }
        if (a === "-s" || a === "-k" || a === "--signal" || a === "--kill-after") j += 2;
        else if (
          /^(--signal=|--kill-after=|-s.|-k.)/.test(a) ||
          /^(--preserve-status|--foreground|-v|--verbose)$/.test(a)
        )
          j++;
        else return null;
      }
      // The duration is required.
      if (j < argv.length && /^\d+(\.\d+)?[smhd]?$/.test(argv[j])) return j + 1;
      return null;
    case "time":
      while (j < argv.length && argv[j] === "-p") j++;
      return j < argv.length && opt(argv[j]) ? null : j;
    case "nice":
      while (j < argv.length && opt(argv[j])) {
        const a = argv[j];
        if (a === "-n" || a === "--adjustment") j += 2;
        else if (/^(-n-?\d+|-\d+|--adjustment=-?\d+)$/.test(a)) j++;
        else return null;
      }
      return j;
    case "stdbuf":
      while (j < argv.length && opt(argv[j])) {
        const a = argv[j];
        if (a === "-i" || a === "-o" || a === "-e") j += 2;
        else if (/^(-[ioe].+|--(input|output|error)=.+)$/.test(a)) j++;
        else return null;
      }
      return j;
    case "command":
      // "the query form `command -v`, which looks up a command rather than running one" is not stripped.
      while (j < argv.length && argv[j] === "-p") j++;
      return j < argv.length && opt(argv[j]) ? null : j;
    default:
      // nohup, builtin, noglob take no options.
      return j < argv.length && opt(argv[j]) ? null : j;
  }
}

/** What an allow rule sees of one part. */
export interface AllowView {
  /** Words of the command after stripping (values, quotes removed). */
  argv: string[];
  /** The command text an allow rule is matched against: source words after stripping, redirections left out. */
  text: string;
  /** "An allow rule won't match past an assignment of any other variable": no allow rule may match. */
  blocked: string | null;
  /** An exec wrapper (or `find -exec`/`-delete`): only an exact allow rule (no `*`) may approve it. */
  execWrapper: string | null;
}

/** Claude Code's allow-side view of a part: documented wrappers, bare `xargs` and safe assignments stripped. */
export function allowView(p: ShellPart): AllowView {
  const argv = p.argv;
  const src = p.src && p.src.length === argv.length ? p.src : argv;
  let i = 0;
  let blocked: string | null = null;
  for (let guard = 0; guard < 64 && i < argv.length; guard++) {
    const m = ASSIGN.exec(argv[i]);
    if (m) {
      const name = m[1];
      if (!SAFE_ENV.has(name) || /[$`]/.test(src[i])) {
        blocked = `assigns ${name}, which is not one of the documented safe variables (${[...SAFE_ENV].join(", ")})`;
        break;
      }
      i++;
      continue;
    }
    const w = argv[i];
    if (w === "xargs") {
      // "Stripping applies only when `xargs` has no flags."
      if (i + 1 < argv.length && !argv[i + 1].startsWith("-")) {
        i++;
        continue;
      }
      break;
    }
    if (!WRAPPERS.has(w)) break;
    const next = wrapperArgs(w, argv, i);
    if (next === null || next >= argv.length) break; // not a form the docs strip: matched as written
    i = next;
  }
  const core = argv.slice(i);
  const name = core[0] ?? "";
  const execWrapper = EXEC_WRAPPERS.has(name)
    ? name
    : name === "find" && core.some((a) => FIND_EXEC.test(a))
      ? `find ${core.find((a) => FIND_EXEC.test(a))}`
      : null;
  return {
    argv: core,
    text: src.slice(i).join(" ").replace(/\s+/g, " ").trim(),
    blocked,
    execWrapper,
  };
}

/** Does the shell pattern have a wildcard (a prefix rule) rather than name one exact command? */
export const isPrefixPattern = (pattern: string) => pattern.includes("*");
