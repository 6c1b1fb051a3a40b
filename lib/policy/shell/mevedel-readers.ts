import type { ShellPart } from "../types";
import { basename } from "./wrappers";

/**
 * mevedel's Bash classes (seed 004 «Bash specifics»): each simple command is read-only, dangerous, complex or
 * unknown; "a dangerous component takes precedence in a compound request". The readers are argument-aware:
 * an option the policy does not know, an output file, helper execution or deletion leaves the reader class.
 */
export type MevedelClass = "read-only" | "dangerous" | "complex" | "unknown";

/** `mevedel-bash-dangerous-commands`, its default value (a user may extend it in init.el; the cockpit cannot see that). */
export const MEVEDEL_DANGEROUS = new Set([
  "rm",
  "sudo",
  "dd",
  "mkfs",
  "fdisk",
  "parted",
  "chmod",
  "chown",
  "chgrp",
  "chattr",
  "kill",
  "pkill",
  "killall",
  "curl",
  "wget",
  "nc",
  "ncat",
  "telnet",
  "ssh",
  "scp",
  "rsync",
  "sftp",
  "iptables",
  "systemctl",
  "service",
  "reboot",
  "shutdown",
  "poweroff",
  "halt",
]);

// `mevedel-bash-analysis--read-only-commands`: readers whose every argument only reads.
const PLAIN = new Set([
  "cat",
  "cd",
  "cut",
  "echo",
  "expr",
  "false",
  "grep",
  "head",
  "id",
  "ls",
  "nl",
  "paste",
  "pwd",
  "rev",
  "seq",
  "stat",
  "tail",
  "tr",
  "true",
  "uname",
  "wc",
  "which",
  "whoami",
]);

type Check = (args: string[]) => boolean;

/** Options: flags without a value, options taking the next word (or `=value`), and `--` ending them. */
function options(
  args: string[],
  flags: string,
  withValue: string,
  long: Set<string>,
  longValue: Set<string>,
): string[] | null {
  const operands: string[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === "--") return [...operands, ...args.slice(i + 1)];
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const name = eq === -1 ? a : a.slice(0, eq);
      if (long.has(name) && eq === -1) continue;
      if (longValue.has(name)) {
        if (eq === -1) i++;
        if (i >= args.length) return null;
        continue;
      }
      return null;
    }
    if (a.startsWith("-") && a.length > 1) {
      for (let k = 1; k < a.length; k++) {
        const c = a[k];
        if (withValue.includes(c)) {
          if (k === a.length - 1) i++;
          if (i >= args.length) return null;
          break;
        }
        if (!flags.includes(c)) return null;
      }
      continue;
    }
    operands.push(a);
  }
  return operands;
}

const set = (...xs: string[]) => new Set(xs);

// find: tests and actions that only read or print to stdout; deletion, -exec/-ok and -fprint* are not among them.
const FIND_OK = set(
  "-name",
  "-iname",
  "-path",
  "-ipath",
  "-wholename",
  "-iwholename",
  "-regex",
  "-iregex",
  "-type",
  "-xtype",
  "-maxdepth",
  "-mindepth",
  "-mtime",
  "-mmin",
  "-atime",
  "-amin",
  "-ctime",
  "-cmin",
  "-newer",
  "-size",
  "-empty",
  "-perm",
  "-user",
  "-group",
  "-nouser",
  "-nogroup",
  "-links",
  "-print",
  "-print0",
  "-printf",
  "-prune",
  "-not",
  "-a",
  "-o",
  "-and",
  "-or",
  "-true",
  "-false",
  "-depth",
  "-follow",
  "-readable",
  "-writable",
  "-executable",
  "-samefile",
  "-inum",
  "-quit",
  "-xdev",
  "-mount",
  "-daystart",
  "-regextype",
);
const FIND_VALUE = set(
  "-name",
  "-iname",
  "-path",
  "-ipath",
  "-wholename",
  "-iwholename",
  "-regex",
  "-iregex",
  "-type",
  "-xtype",
  "-maxdepth",
  "-mindepth",
  "-mtime",
  "-mmin",
  "-atime",
  "-amin",
  "-ctime",
  "-cmin",
  "-newer",
  "-size",
  "-perm",
  "-user",
  "-group",
  "-links",
  "-printf",
  "-samefile",
  "-inum",
  "-regextype",
);

const find: Check = (args) => {
  let i = 0;
  while (i < args.length && /^-[HLP]$/.test(args[i])) i++;
  while (i < args.length && !args[i].startsWith("-") && args[i] !== "(" && args[i] !== "!") i++;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === "(" || a === ")" || a === "!" || a === ",") continue;
    if (!FIND_OK.has(a)) return false;
    if (FIND_VALUE.has(a)) i++;
  }
  return i <= args.length;
};

// ripgrep: --pre and -z/--search-zip run helpers; anything not listed is unknown.
const RG_FLAGS = "iSswxvnNlcoFUaHhqu0.PLIb";
const RG_VALUE = "eAfBCgtTmMjEr";
const RG_LONG = set(
  "--ignore-case",
  "--smart-case",
  "--case-sensitive",
  "--word-regexp",
  "--line-regexp",
  "--invert-match",
  "--line-number",
  "--no-line-number",
  "--files-with-matches",
  "--files-without-match",
  "--count",
  "--count-matches",
  "--only-matching",
  "--fixed-strings",
  "--multiline",
  "--multiline-dotall",
  "--text",
  "--with-filename",
  "--no-filename",
  "--quiet",
  "--unrestricted",
  "--null",
  "--hidden",
  "--follow",
  "--no-ignore",
  "--no-ignore-vcs",
  "--no-ignore-dot",
  "--no-ignore-parent",
  "--no-ignore-global",
  "--files",
  "--json",
  "--heading",
  "--no-heading",
  "--column",
  "--vimgrep",
  "--trim",
  "--stats",
  "--type-list",
  "--no-messages",
  "--byte-offset",
  "--pcre2",
  "--no-config",
  "--sort-files",
  "--crlf",
  "--line-buffered",
  "--block-buffered",
  "--passthru",
  "--unicode",
  "--no-unicode",
  "--help",
  "--version",
);
const RG_LONG_VALUE = set(
  "--regexp",
  "--file",
  "--after-context",
  "--before-context",
  "--context",
  "--glob",
  "--iglob",
  "--type",
  "--type-not",
  "--max-count",
  "--max-depth",
  "--max-columns",
  "--max-filesize",
  "--threads",
  "--encoding",
  "--replace",
  "--color",
  "--colors",
  "--sort",
  "--sortr",
  "--path-separator",
  "--context-separator",
  "--field-match-separator",
  "--engine",
);
const rg: Check = (args) => options(args, RG_FLAGS, RG_VALUE, RG_LONG, RG_LONG_VALUE) !== null;

const base64: Check = (args) => {
  const ops = options(args, "di", "w", set("--decode", "--ignore-garbage", "--help", "--version"), set("--wrap"));
  return ops !== null && ops.length <= 1;
};

// sed: only printing scripts (`1,5p`, `$p`, `/re/p`); -i, w/W/e commands and script files are not proven read-only.
const SED_SCRIPT = /^\s*(\d+|\$|\/(?:[^/\\]|\\.)*\/)?(\s*,\s*(\d+|\$|\/(?:[^/\\]|\\.)*\/))?\s*!?\s*p\s*$/;
const sed: Check = (args) => {
  const scripts: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "-e" || a === "--expression") {
      if (i + 1 >= args.length) return false;
      scripts.push(args[++i]);
    } else if (a.startsWith("--expression=")) scripts.push(a.slice(13));
    else if (/^-[nErsuz]+$/.test(a) || a === "--quiet" || a === "--silent" || a === "--posix") continue;
    else if (a.startsWith("-") && a !== "-") return false;
    else rest.push(a);
  }
  if (scripts.length === 0) {
    const s = rest.shift();
    if (s === undefined) return false;
    scripts.push(s);
  }
  return scripts.every((s) => s.split(/;|\n/).every((c) => SED_SCRIPT.test(c)));
};

// awk: a program that only prints to stdout. system(), getline, pipes, output redirection and indirect calls (`@f()`)
// leave the reader class; so do program files and extension loading.
const awk: Check = (args) => {
  let program: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "-F" || a === "-v") {
      if (++i >= args.length) return false;
      continue;
    }
    if (/^-F./.test(a) || /^-v./.test(a)) continue;
    if (a === "--") continue;
    if (a.startsWith("-")) return false;
    if (program === null) program = a;
  }
  if (program === null) return false;
  const code = program.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  return !/system|getline|close|fflush|[|>@`]|\bprint\s*>|\bprintf\s*>/.test(code);
};

const diff: Check = (args) =>
  options(
    args,
    "uUcCqsiwbBaypNrtTEZd",
    "UCLxXI",
    set(
      "--brief",
      "--report-identical-files",
      "--ignore-case",
      "--ignore-all-space",
      "--ignore-space-change",
      "--ignore-blank-lines",
      "--text",
      "--side-by-side",
      "--show-c-function",
      "--new-file",
      "--recursive",
      "--expand-tabs",
      "--initial-tab",
      "--strip-trailing-cr",
      "--minimal",
      "--unified",
      "--context",
      "--normal",
      "--color",
      "--suppress-common-lines",
      "--help",
      "--version",
    ),
    set("--label", "--exclude", "--exclude-from", "--ignore-matching-lines", "--color", "--width", "--tabsize"),
  ) !== null;

const cmp: Check = (args) => {
  const ops = options(
    args,
    "blsv",
    "inI",
    set("--print-bytes", "--verbose", "--silent", "--quiet", "--help", "--version"),
    set("--bytes", "--ignore-initial"),
  );
  return ops !== null && ops.length >= 1 && ops.length <= 4;
};

const readlink: Check = (args) =>
  options(
    args,
    "femnqsvz",
    "",
    set(
      "--canonicalize",
      "--canonicalize-existing",
      "--canonicalize-missing",
      "--no-newline",
      "--quiet",
      "--silent",
      "--verbose",
      "--zero",
      "--help",
      "--version",
    ),
    set(),
  ) !== null;

const realpath: Check = (args) =>
  options(
    args,
    "emLPqsz",
    "",
    set(
      "--canonicalize-existing",
      "--canonicalize-missing",
      "--logical",
      "--physical",
      "--quiet",
      "--strip",
      "--no-symlinks",
      "--zero",
      "--help",
      "--version",
    ),
    set("--relative-to", "--relative-base"),
  ) !== null;

const du: Check = (args) =>
  options(
    args,
    "ashckmbxLHPlS0",
    "dBt",
    set(
      "--all",
      "--summarize",
      "--human-readable",
      "--si",
      "--total",
      "--apparent-size",
      "--bytes",
      "--dereference",
      "--dereference-args",
      "--no-dereference",
      "--one-file-system",
      "--count-links",
      "--separate-dirs",
      "--null",
      "--inodes",
      "--help",
      "--version",
    ),
    set("--max-depth", "--block-size", "--threshold", "--exclude", "--time", "--time-style"),
  ) !== null;

// uniq (GNU): options before the input only, an optional `-` output (stdout), never an output file.
const UNIQ_NUM = /^\+?\d+$/;
const UNIQ_LONG_FLAG = set(
  "--count",
  "--repeated",
  "--ignore-case",
  "--zero-terminated",
  "--unique",
  "--help",
  "--version",
);
const UNIQ_LONG_NUM = set("--skip-fields", "--skip-chars", "--check-chars");
const uniq: Check = (args) => {
  let count = false;
  let allRepeated = false;
  let group = false;
  let selecting = false;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a.includes("\0")) return false;
    if (a === "--") {
      i++;
      break;
    }
    if (a === "-" || !a.startsWith("-")) break;
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const name = eq === -1 ? a : a.slice(0, eq);
      const value = eq === -1 ? null : a.slice(eq + 1);
      if (UNIQ_LONG_FLAG.has(name) && value === null) {
        if (name === "--count") count = true;
        if (name === "--repeated" || name === "--unique") selecting = true;
      } else if (UNIQ_LONG_NUM.has(name)) {
        const v = value ?? args[++i];
        if (v === undefined || !UNIQ_NUM.test(v)) return false;
      } else if (name === "--all-repeated") {
        if (value !== null && !["none", "prepend", "separate"].includes(value)) return false;
        allRepeated = true;
      } else if (name === "--group") {
        if (value !== null && !["separate", "prepend", "append", "both"].includes(value)) return false;
        group = true;
      } else return false;
      continue;
    }
    for (let k = 1; k < a.length; k++) {
      const c = a[k];
      if ("fsw".includes(c)) {
        const v = k === a.length - 1 ? args[++i] : a.slice(k + 1);
        if (v === undefined || !UNIQ_NUM.test(v)) return false;
        break;
      }
      if (!"cdDiuz".includes(c)) return false;
      if (c === "c") count = true;
      if (c === "D") allRepeated = true;
      if (c === "d" || c === "u") selecting = true;
    }
  }
  if (group && (count || allRepeated || selecting)) return false;
  if (count && allRepeated) return false;
  const operands = args.slice(i);
  if (operands.length > 2) return false;
  if (operands.length === 2 && operands[1] !== "-") return false;
  return operands.every((o) => !o.includes("\0"));
};

// test / [: literal file, string and integer forms only (`-v` and non-literal integers evaluate arithmetic).
const FILE_OPS = /^-[bcdefghkLprsStuwxOGN]$/;
const INT = /^-?\d+$/;
function testExpr(args: string[]): boolean {
  const a = args[0] === "!" ? args.slice(1) : args;
  if (a.length === 1) return !a[0].startsWith("-") || a[0] === "-";
  if (a.length === 2) return FILE_OPS.test(a[0]) || a[0] === "-z" || a[0] === "-n";
  if (a.length === 3) {
    if (["=", "==", "!="].includes(a[1])) return true;
    if (/^-(eq|ne|lt|le|gt|ge)$/.test(a[1])) return INT.test(a[0]) && INT.test(a[2]);
    return false;
  }
  return false;
}
const test: Check = (args) => testExpr(args);
const bracket: Check = (args) => args[args.length - 1] === "]" && testExpr(args.slice(0, -1));

// Git inspection (seed 004 «Git inspection covers status, diff, log, show, rev-parse, ls-files, ls-tree, bounded
// cat-file and merge-base, for-each-ref, and explicit branch listing»); helper-enabling options are refused.
const GIT_SUBS = set(
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
);
const GIT_BRANCH_LIST =
  /^(-a|-r|-l|-v|-vv|--all|--remotes|--list|--show-current|--verbose|--no-color|--merged|--no-merged)$/;
const git: Check = (args) => {
  let i = 0;
  while (i < args.length && args[i].startsWith("-")) {
    if (args[i] === "-C") i += 2;
    else if (args[i] === "--no-pager" || args[i] === "-P" || args[i] === "--no-optional-locks") i++;
    else return false;
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  if (rest.some((a) => /^--(output|ext-diff|textconv|exec|upload-pack|open-files-in-pager|paginate)/.test(a)))
    return false;
  if (sub === "branch") return rest.length > 0 && rest.every((a) => GIT_BRANCH_LIST.test(a));
  return GIT_SUBS.has(sub);
};

const ARGUMENT_AWARE: Record<string, Check> = {
  find,
  rg,
  base64,
  sed,
  awk,
  diff,
  cmp,
  readlink,
  realpath,
  du,
  uniq,
  test,
  "[": bracket,
  git,
};

/** Words of `[ … ]`: tree-sitter hands the test expression over as one word, so split the literal text. */
function words(p: ShellPart): string[] {
  if (p.argv[0] === "[" && /^\[\s/.test(p.text) && !/['"$`\\]/.test(p.text)) return p.text.split(/\s+/);
  return p.argv;
}

/** Is one simple command a recognised mevedel inspection? Assignments, wrappers and redirections disqualify it. */
export function mevedelReadOnlyPart(p: ShellPart): boolean {
  if (p.writes.length || p.assignments.length || p.wrappers.length || p.argv.length === 0) return false;
  const argv = words(p);
  const name = argv[0];
  if (PLAIN.has(name)) return true;
  const check = ARGUMENT_AWARE[name];
  return check !== undefined && check(argv.slice(1));
}

/** Is the simple command one of `mevedel-bash-dangerous-commands` (after env prefixes, wrappers and paths)? */
export function mevedelDangerousPart(p: ShellPart): boolean {
  if (p.wrappers.some((w) => MEVEDEL_DANGEROUS.has(basename(w)))) return true;
  const name = basename(p.core[0] ?? p.argv[0] ?? "");
  return MEVEDEL_DANGEROUS.has(name);
}
