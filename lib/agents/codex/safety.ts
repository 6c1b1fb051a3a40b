/**
 * Codex's command heuristics (shell-command/src/command_safety): the known-safe list that runs unmatched commands
 * without asking, and the dangerous-command check. Unix behaviour; `linux` adds `numfmt` and `tac` as Codex does
 * on Linux. Windows-only lists are not modelled (the cockpit decides for Unix hosts).
 */
import type { Parser } from "web-tree-sitter";
import { fileName } from "./paths";
import { parseShellLcPlainCommands } from "./shell-split";

export interface SafetyOptions {
  /** Codex on Linux also treats `numfmt` and `tac` as safe. Default true. */
  linux?: boolean;
}

const SAFE = new Set([
  "cat", "cd", "cut", "echo", "expr", "false", "grep", "head", "id", "ls", "nl", "paste", "pwd", "rev", "seq",
  "stat", "tail", "tr", "true", "uname", "uniq", "wc", "which", "whoami",
]); // prettier-ignore
const UNSAFE_FIND = new Set([
  "-exec",
  "-execdir",
  "-ok",
  "-okdir",
  "-delete",
  "-fls",
  "-fprint",
  "-fprint0",
  "-fprintf",
]);
const UNSAFE_GIT_FLAGS = new Set(["--output", "--ext-diff", "--textconv", "--exec", "--paginate"]);
const GIT_VALUE_OPTIONS = new Set([
  "-C",
  "-c",
  "--config-env",
  "--exec-path",
  "--git-dir",
  "--namespace",
  "--super-prefix",
  "--work-tree",
]);
/** Global options that redirect config, repository or helper lookup: `-C` only changes directory. */
const GIT_PROMPT_OPTIONS = new Set([...GIT_VALUE_OPTIONS].filter((o) => o !== "-C"));
const GIT_INLINE_PREFIXES = [...GIT_PROMPT_OPTIONS].filter((o) => o.startsWith("--")).map((o) => `${o}=`);
const BRANCH_READ_FLAGS = new Set([
  "--list",
  "-l",
  "--show-current",
  "-a",
  "--all",
  "-r",
  "--remotes",
  "-v",
  "-vv",
  "--verbose",
]);

function gitOptionRequiresPrompt(arg: string): boolean {
  return (
    GIT_PROMPT_OPTIONS.has(arg) ||
    (arg.startsWith("-c") && arg.length > 2) ||
    GIT_INLINE_PREFIXES.some((p) => arg.startsWith(p))
  );
}
function gitInlineValue(arg: string): boolean {
  return (
    GIT_INLINE_PREFIXES.some((p) => arg.startsWith(p)) ||
    ((arg.startsWith("-C") || arg.startsWith("-c")) && arg.length > 2)
  );
}

/** is_dangerous_command.rs find_git_subcommand: the first non-option token, if it is one of `subcommands`. */
export function findGitSubcommand(cmd: readonly string[], subcommands: readonly string[]): number | undefined {
  if (cmd[0] === undefined || fileName(cmd[0]) !== "git") return undefined;
  let skip = false;
  for (let i = 1; i < cmd.length; i++) {
    if (skip) {
      skip = false;
      continue;
    }
    const arg = cmd[i]!;
    if (gitInlineValue(arg)) continue;
    if (GIT_VALUE_OPTIONS.has(arg)) {
      skip = true;
      continue;
    }
    if (arg === "--" || arg.startsWith("-")) continue;
    return subcommands.includes(arg) ? i : undefined;
  }
  return undefined;
}

function gitArgsReadOnly(args: readonly string[]): boolean {
  return !args.some((a) => UNSAFE_GIT_FLAGS.has(a) || a.startsWith("--output=") || a.startsWith("--exec="));
}

function gitBranchReadOnly(args: readonly string[]): boolean {
  if (args.length === 0) return true;
  let sawFlag = false;
  for (const a of args) {
    if (BRANCH_READ_FLAGS.has(a) || a.startsWith("--format=")) sawFlag = true;
    else return false;
  }
  return sawFlag;
}

const SED_N = /^(\d+,)?\d+p$/;

/** is_safe_command.rs is_safe_to_call_with_exec. */
export function isSafeToCallWithExec(cmd: readonly string[], opts: SafetyOptions = {}): boolean {
  const cmd0 = cmd[0];
  if (cmd0 === undefined) return false;
  const name = fileName(cmd0);
  if (name === undefined) return false;
  if ((opts.linux ?? true) && (name === "numfmt" || name === "tac")) return true;
  if (SAFE.has(name)) return true;
  const args = cmd.slice(1);
  switch (name) {
    case "base64":
      return !args.some(
        (a) => a === "-o" || a === "--output" || a.startsWith("--output=") || (a.startsWith("-o") && a !== "-o"),
      );
    case "find":
      return !cmd.some((a) => UNSAFE_FIND.has(a));
    case "rg":
      return !cmd.some(
        (a) =>
          a === "--search-zip" ||
          a === "-z" ||
          ["--pre", "--hostname-bin"].some((o) => a === o || a.startsWith(`${o}=`)),
      );
    case "git": {
      if (args.some(gitOptionRequiresPrompt)) return false;
      const idx = findGitSubcommand(cmd, ["status", "log", "diff", "show", "branch"]);
      if (idx === undefined) return false;
      const rest = cmd.slice(idx + 1);
      return cmd[idx] === "branch" ? gitArgsReadOnly(rest) && gitBranchReadOnly(rest) : gitArgsReadOnly(rest);
    }
    case "sed":
      return cmd.length <= 4 && cmd[1] === "-n" && cmd[2] !== undefined && SED_N.test(cmd[2]);
    default:
      return false;
  }
}

/** is_safe_command.rs is_known_safe_command (Unix): `zsh` reads as `bash`; a plain `bash -lc` script is safe when every segment is. */
export function isKnownSafeCommand(command: readonly string[], bash: Parser, opts: SafetyOptions = {}): boolean {
  const cmd = command.map((s) => (s === "zsh" ? "bash" : s));
  if (isSafeToCallWithExec(cmd, opts)) return true;
  const all = parseShellLcPlainCommands(cmd, bash);
  return !!all && all.length > 0 && all.every((c) => isSafeToCallWithExec(c, opts));
}

/** is_dangerous_command.rs is_dangerous_to_call_with_exec: `rm -f|-rf …`, and `sudo` followed by one. */
export function isDangerousToCallWithExec(cmd: readonly string[]): boolean {
  if (cmd[0] === "rm") return cmd[1] === "-f" || cmd[1] === "-rf";
  if (cmd[0] === "sudo") return isDangerousToCallWithExec(cmd.slice(1));
  return false;
}

/** is_dangerous_command.rs command_might_be_dangerous (Unix). */
export function commandMightBeDangerous(command: readonly string[], bash: Parser): boolean {
  if (isDangerousToCallWithExec(command)) return true;
  const all = parseShellLcPlainCommands(command, bash);
  return !!all && all.some(isDangerousToCallWithExec);
}
