import type { ShellPart } from "../types";
import { basename } from "./wrappers";

/** Read-only commands whose every argument form only reads (argument-aware checks below). */
const READERS = new Set([
  "ls",
  "cat",
  "head",
  "tail",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "echo",
  "pwd",
  "wc",
  "true",
  "false",
  "date",
  "whoami",
  "id",
  "uname",
  "hostname",
  "which",
  "type",
  "file",
  "stat",
  "du",
  "df",
  "diff",
  "cmp",
  "tree",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "cut",
  "tr",
  "nl",
  "od",
  "hexdump",
  "printenv",
  "test",
  "[",
  "[[",
  "column",
  "less",
  "more",
  "printf",
  "seq",
  "uptime",
  "jq",
  "find",
  "sed",
  "sort",
  "uniq",
  "git",
  "env",
  "ps",
  "sha256sum",
  "md5sum",
  "cksum",
]);
const FIND_WRITES = new Set([
  "-delete",
  "-exec",
  "-execdir",
  "-ok",
  "-okdir",
  "-fprint",
  "-fprint0",
  "-fprintf",
  "-fls",
]);
const GIT_READ = new Set([
  "status",
  "diff",
  "log",
  "show",
  "rev-parse",
  "ls-files",
  "ls-tree",
  "cat-file",
  "merge-base",
  "for-each-ref",
  "blame",
  "describe",
  "shortlog",
  "grep",
  "show-ref",
  "rev-list",
  "whatchanged",
]);
const GIT_LIST_FLAGS =
  /^(-a|-r|-l|-v|-vv|--all|--remotes|--list|--show-current|--verbose|--no-color|--color|--merged|--no-merged|--contains)$/;

/** Bases that run arbitrary code: remembering them stores the exact command, never a prefix. */
export const ARBITRARY_CODE = new Set([
  "bash",
  "sh",
  "zsh",
  "dash",
  "ksh",
  "fish",
  "python",
  "python2",
  "python3",
  "node",
  "deno",
  "bun",
  "ruby",
  "perl",
  "php",
  "lua",
  "curl",
  "wget",
  "eval",
  "exec",
  "source",
  ".",
  "npx",
  "pnpx",
  "bunx",
  "xargs",
  "env",
  "sudo",
  "doas",
  "ssh",
  "awk",
  "gawk",
  "osascript",
  "pwsh",
  "powershell",
  "find",
]);

const DANGEROUS = new Set([
  "dd",
  "mkfs",
  "fdisk",
  "parted",
  "shutdown",
  "reboot",
  "halt",
  "poweroff",
  "chown",
  "chmod",
  "kill",
  "killall",
  "pkill",
  "eval",
  "sudo",
  "doas",
  "shred",
  "truncate",
  "crontab",
  "iptables",
]);

const SAFE_FILE = new Set(["mkdir", "touch", "cp", "mv", "rm", "rmdir", "sed"]);

const positional = (args: string[]) => args.filter((a) => !a.startsWith("-"));

/** Is this simple command read-only (argument-aware)? Env prefixes and wrappers disqualify it (allow never strips). */
export function isReadOnlyPart(p: ShellPart): boolean {
  if (p.writes.length || p.assignments.length || p.wrappers.length || p.argv.length === 0) return false;
  const name = p.argv[0];
  if (!READERS.has(name)) return false;
  const args = p.argv.slice(1);
  switch (name) {
    case "find":
      return !args.some((a) => FIND_WRITES.has(a));
    case "sed":
      return !args.some(
        (a) => /^-[a-zA-Z]*i|^--in-place/.test(a) || /\/[gpiImMe0-9]*[we](\s|$)|(^|[;{}\n])\s*[wWe](\s|$)/.test(a),
      );
    case "sort":
      return !args.some((a) => /^-[a-zA-Z]*o|^--output/.test(a));
    case "uniq":
      return positional(args).length <= 1;
    case "rg":
      return !args.some((a) => /^--pre(=|$)/.test(a));
    case "env":
    case "printenv":
      return args.length === 0 || name === "printenv";
    case "git":
      return isReadOnlyGit(args);
    default:
      return true;
  }
}

function isReadOnlyGit(args: string[]): boolean {
  let i = 0;
  while (i < args.length && args[i].startsWith("-")) {
    if (args[i] === "-C") i += 2;
    else if (args[i] === "--no-pager" || args[i] === "-P" || args[i] === "--no-optional-locks") i++;
    else return false; // -c overrides and --git-dir/--exec-path can enable helpers
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  if (rest.some((a) => /^--(output|ext-diff|textconv|exec)/.test(a))) return false;
  if (GIT_READ.has(sub)) return true;
  if (sub === "branch" || sub === "tag") return rest.every((a) => GIT_LIST_FLAGS.test(a));
  if (sub === "remote") return rest.every((a) => a === "-v" || a === "--verbose");
  if (sub === "stash") return rest[0] === "list" || rest[0] === "show";
  if (sub === "config")
    return (
      rest.some((a) => /^(--get|--get-all|--list|-l)$/.test(a)) &&
      !rest.some((a) => /^--(add|unset|replace|rename|remove)/.test(a))
    );
  return false;
}

const SECRET_RE = /^(\.env|\.env\..+|.+\.pem|.+\.key|id_rsa|id_ed25519|id_ecdsa|id_dsa|credentials|\.netrc)$/;

/** Does a path argument name secret material (`.env`, `id_rsa`, `*.pem`, files under `.ssh/`)? */
export function isSecretPath(arg: string): boolean {
  const a = arg.replace(/^--?[\w-]+=/, "").replace(/\/+$/, "");
  return SECRET_RE.test(basename(a)) || /(^|\/)\.ssh(\/|$)/.test(a);
}

/** Is `t` the file-system root or the home directory in any spelling (`/`, `/*`, `~`, `~/`, `$HOME`, `${HOME}/*`)? `$HOMEDIR` is not. */
export function isRootOrHome(t: string): boolean {
  let s = t.replace(/\$\{HOME\}/g, "$HOME");
  if (!/^(\/|~|\$HOME)/.test(s)) return false;
  for (let prev = ""; prev !== s;) {
    prev = s;
    s = s.replace(/\/+\*?$/, "").replace(/\/\.$/, "");
  }
  return s === "" || s === "~" || s === "$HOME";
}

/** Delete facts of one command: recursive flag and targets (`rm`, `find … -delete`). */
export function deleteFacts(core: string[]): { recursive: boolean; targets: string[]; isDelete: boolean } {
  const name = core.length ? basename(core[0]) : "";
  if (name === "rm") {
    let recursive = false;
    const targets: string[] = [];
    let opts = true;
    for (const a of core.slice(1)) {
      if (opts && a === "--") {
        opts = false;
        continue;
      }
      if (opts && a.startsWith("--")) {
        if (a === "--recursive") recursive = true;
        continue;
      }
      if (opts && a.startsWith("-") && a.length > 1) {
        if (/[rR]/.test(a)) recursive = true;
        continue;
      }
      targets.push(a);
    }
    return { recursive, targets, isDelete: true };
  }
  if (name === "find" && core.includes("-delete")) {
    const targets: string[] = [];
    for (const a of core.slice(1)) {
      if (a.startsWith("-") || a === "(" || a === "!") break;
      targets.push(a);
    }
    return { recursive: true, targets: targets.length ? targets : ["."], isDelete: true };
  }
  return { recursive: false, targets: [], isDelete: false };
}

/** Is this command dangerous (shown as a warning; remembered only as the exact command)? */
export function isDangerousPart(p: ShellPart): boolean {
  if (p.wrappers.includes("sudo") || p.wrappers.includes("doas")) return true;
  const core = p.core;
  if (!core.length) return false;
  const name = basename(core[0]);
  if (DANGEROUS.has(name) || name.startsWith("mkfs")) return true;
  if (deleteFacts(core).recursive) return true;
  if (name === "git") {
    const sub = core.slice(1).filter((a) => !a.startsWith("-"))[0];
    if (sub === "push" && core.some((a) => /^(-f|--force.*|--mirror|--delete|-d)$/.test(a))) return true;
    if (sub === "reset" && core.includes("--hard")) return true;
    if (sub === "clean" && core.some((a) => /^-[a-zA-Z]*f/.test(a))) return true;
  }
  return false;
}

/** A safe file command for accept-edits: its file targets, or null when it is not one. */
export function safeFileTargets(p: ShellPart): string[] | null {
  if (p.writes.length || p.assignments.length || p.wrappers.length || p.dynamic || !p.argv.length) return null;
  const name = p.argv[0];
  if (!SAFE_FILE.has(name)) return null;
  const args = p.argv.slice(1);
  if (name === "rm" && deleteFacts(p.argv).recursive) return null;
  if (name === "sed") {
    const files = positional(args);
    const hasScriptFlag = args.some((a) => a === "-e" || a === "-f" || a.startsWith("--expression"));
    return hasScriptFlag
      ? files.filter((f) => !args.includes(`-e`) || args[args.indexOf(f) - 1] !== "-e")
      : files.slice(1);
  }
  return positional(args);
}
