import path from "node:path";
import { isSubpath, type HostFacts } from "./host";
import { shellQuoteArgs, splitCommands, type GeminiShell } from "./shell";

/**
 * Gemini CLI's known-safe and dangerous command lists (facts from @google/gemini-cli-core 0.61.0
 * sandbox/utils/commandSafety.ts, used on Linux and macOS by the default NoopSandboxManager). Pure: paths are
 * looked up through {@link HostFacts}; where the host cannot tell, a path counts as escaping the workspace.
 */

const SAFE_COMMANDS = new Set([
  "__read", "__write", "cat", "cd", "cut", "echo", "expr", "false", "grep", "head", "id", "ls", "nl", "paste",
  "pwd", "rev", "seq", "stat", "tail", "tr", "true", "uname", "uniq", "wc", "which", "whoami", "numfmt", "tac",
]); // prettier-ignore
const FILE_READING = new Set([
  "cat", "head", "tail", "tac", "nl", "stat", "wc", "cut", "paste", "rev", "uniq", "numfmt", "ls", "__read",
]); // prettier-ignore
const FIND_UNSAFE = new Set([
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
const RG_UNSAFE_WITH_ARGS = ["--pre", "--hostname-bin"];
const RG_UNSAFE_WITHOUT_ARGS = new Set(["--search-zip", "-z"]);
const GIT_READ_SUBCOMMANDS = ["status", "log", "diff", "show", "branch"];
const TRUSTED_BIN_PREFIXES = [
  "/usr/bin", "/bin", "/usr/local/bin", "/opt/homebrew/bin", "/opt/homebrew/Cellar", "/usr/local/Cellar",
  "/usr/sbin", "/sbin", "/google/bin", "/google/src/cloud",
]; // prettier-ignore

const isRipgrep = (cmd: string) => {
  const b = path.basename(cmd);
  return b === "rg" || b === "rg.exe";
};

function realOrNull(host: HostFacts, p: string): string | null {
  return host.realpath(p);
}

/** `isTrustedSystemPath` after `resolveToRealPath`: an absolute `rg` binary under a system directory. */
function isTrustedCommandPath(host: HostFacts, cmd: string): boolean {
  if (!path.isAbsolute(cmd)) return false;
  const real = realOrNull(host, cmd);
  if (real === null) return false;
  const norm = host.platform === "darwin" ? path.resolve(real).toLowerCase() : path.resolve(real);
  const cwd = host.platform === "darwin" ? path.resolve(host.processCwd).toLowerCase() : path.resolve(host.processCwd);
  if (cwd !== "/" && isSubpath(host, cwd, norm)) return false;
  return TRUSTED_BIN_PREFIXES.some((prefix) => norm === prefix || norm.startsWith(prefix + "/"));
}

/** `isPathEscapingWorkspace`: outside the workspace, a `$`/backtick, `~user`, or a symlink that leads out. */
function escapes(host: HostFacts, arg: string, workspace: string, cwd: string): boolean {
  if (!arg) return false;
  if (arg.includes("$") || arg.includes("`")) return true;
  let target: string;
  if (arg === "~" || arg.startsWith("~/") || arg.startsWith("~\\")) {
    target = path.resolve(host.homeDir, arg.slice(2));
    if (!isSubpath(host, workspace, target)) return true;
  } else if (arg.startsWith("~")) {
    return true;
  } else if (path.isAbsolute(arg)) {
    target = path.resolve(arg);
    if (!isSubpath(host, workspace, target)) return true;
  } else {
    target = path.resolve(cwd, arg);
    if (!isSubpath(host, workspace, target)) return true;
  }
  let cur = target;
  while (cur && isSubpath(host, workspace, cur) && cur !== path.dirname(cur)) {
    const kind = host.kind(cur);
    if (kind === "unknown") return true;
    if (kind === "symlink") {
      const real = host.realpath(cur);
      if (real === null || !isSubpath(host, workspace, real)) return true;
    }
    cur = path.dirname(cur);
  }
  return false;
}

/** A flag-looking argument counts as a path when something of that name exists (`lstatSync`). */
function flagIsExistingPath(host: HostFacts, cwd: string, arg: string): boolean | "unknown" {
  const k = host.kind(path.resolve(cwd, arg));
  if (k === "unknown") return "unknown";
  return k !== "missing";
}

function filesArgsStayInside(host: HostFacts, args: string[], ws: string, cwd: string, withFileFlag: boolean): boolean {
  let passedDoubleDash = false;
  for (let i = 1; i < args.length; i++) {
    const arg = args[i];
    if (!passedDoubleDash) {
      if (arg === "--") {
        passedDoubleDash = true;
        continue;
      }
      if (arg === "-") continue;
      if (withFileFlag && (arg.startsWith("-f") || arg.startsWith("--file"))) {
        let fileArg: string | undefined;
        if (arg.startsWith("--file=")) fileArg = arg.slice(7);
        else if (arg === "--file") fileArg = args[++i];
        else fileArg = arg.length > 2 ? arg.slice(2) : args[++i];
        if (fileArg && escapes(host, fileArg, ws, cwd)) return false;
        continue;
      }
      if (arg.startsWith("-")) {
        if (arg.includes("=")) {
          if (escapes(host, arg.slice(arg.indexOf("=") + 1), ws, cwd)) return false;
          continue;
        }
        const exists = flagIsExistingPath(host, cwd, arg);
        if (exists === "unknown") return false;
        if (!exists) continue;
      }
    }
    if (escapes(host, arg, ws, cwd)) return false;
  }
  return true;
}

function findGitSubcommand(args: string[]): { idx: number; subcommand: string | null } {
  let skipNext = false;
  for (let idx = 1; idx < args.length; idx++) {
    if (skipNext) {
      skipNext = false;
      continue;
    }
    const arg = args[idx];
    if (
      arg.startsWith("--config-env=") ||
      arg.startsWith("--exec-path=") ||
      arg.startsWith("--git-dir=") ||
      arg.startsWith("--namespace=") ||
      arg.startsWith("--super-prefix=") ||
      arg.startsWith("--work-tree=") ||
      ((arg.startsWith("-C") || arg.startsWith("-c")) && arg.length > 2)
    ) {
      continue;
    }
    if (
      ["-C", "-c", "--config-env", "--exec-path", "--git-dir", "--namespace", "--super-prefix", "--work-tree"].includes(
        arg,
      )
    ) {
      skipNext = true;
      continue;
    }
    if (arg === "--" || arg.startsWith("-")) continue;
    if (GIT_READ_SUBCOMMANDS.includes(arg)) return { idx, subcommand: arg };
    return { idx: -1, subcommand: null };
  }
  return { idx: -1, subcommand: null };
}

const gitHasConfigOverride = (args: string[]) =>
  args.some(
    (a) => a === "-c" || a === "--config-env" || (a.startsWith("-c") && a.length > 2) || a.startsWith("--config-env="),
  );

const gitArgsReadOnly = (args: string[]) =>
  !args.some(
    (a) =>
      ["--output", "--ext-diff", "--textconv", "--exec", "--paginate"].includes(a) ||
      a.startsWith("--output=") ||
      a.startsWith("--exec="),
  );

function gitBranchReadOnly(args: string[]): boolean {
  if (args.length === 0) return true;
  let saw = false;
  for (const a of args) {
    if (["--list", "-l", "--show-current", "-a", "--all", "-r", "--remotes", "-v", "-vv", "--verbose"].includes(a))
      saw = true;
    else if (a.startsWith("--format=")) saw = true;
    else return false;
  }
  return saw;
}

function isValidSedNArg(arg: string | undefined): boolean {
  if (!arg || !arg.endsWith("p")) return false;
  const parts = arg.slice(0, -1).split(",");
  if (parts.length === 1) return parts[0].length > 0 && /^\d+$/.test(parts[0]);
  if (parts.length === 2) return parts.every((p) => p.length > 0 && /^\d+$/.test(p));
  return false;
}

const base64Unsafe = (args: string[]) =>
  args
    .slice(1)
    .some((a) => a === "-o" || a === "--output" || a.startsWith("--output=") || (a.startsWith("-o") && a !== "-o"));

function isSafeToCallWithExec(host: HostFacts, args: string[], cwd: string | undefined): boolean {
  if (args.length === 0) return false;
  const cmd = args[0];
  const wsResolved = path.resolve(host.workspace);
  const ws = host.realpath(wsResolved) ?? wsResolved;
  const cwdResolved = cwd ? path.resolve(cwd) : ws;
  const effCwd = cwd ? (host.realpath(cwdResolved) ?? cwdResolved) : ws;
  if (effCwd !== ws && !isSubpath(host, ws, effCwd)) return false;

  if (SAFE_COMMANDS.has(cmd)) {
    if (cmd === "cd") {
      let hasPath = false;
      for (let i = 1; i < args.length; i++) {
        if (args[i].startsWith("-")) continue;
        hasPath = true;
        if (escapes(host, args[i], ws, effCwd)) return false;
      }
      if (!hasPath && escapes(host, "~", ws, effCwd)) return false;
      return true;
    }
    if (FILE_READING.has(cmd)) return filesArgsStayInside(host, args, ws, effCwd, false);
    if (cmd === "grep") return filesArgsStayInside(host, args, ws, effCwd, true);
    return true;
  }
  if (cmd === "base64") {
    if (base64Unsafe(args)) return false;
    return !args.slice(1).some((a) => !a.startsWith("-") && escapes(host, a, ws, effCwd));
  }
  if (cmd === "find") {
    if (args.some((a) => FIND_UNSAFE.has(a))) return false;
    return !args.slice(1).some((a) => !a.startsWith("-") && escapes(host, a, ws, effCwd));
  }
  if (isRipgrep(cmd)) {
    if (!isTrustedCommandPath(host, cmd)) return false;
    for (const a of args.slice(1)) {
      if (RG_UNSAFE_WITHOUT_ARGS.has(a)) return false;
      if (RG_UNSAFE_WITH_ARGS.some((o) => a === o || a.startsWith(o + "="))) return false;
    }
    return filesArgsStayInside(host, args, ws, effCwd, true);
  }
  if (cmd === "git") {
    if (gitHasConfigOverride(args)) return false;
    const { idx, subcommand } = findGitSubcommand(args);
    if (!subcommand) return false;
    const rest = args.slice(idx + 1);
    if (subcommand === "branch") return gitArgsReadOnly(rest) && gitBranchReadOnly(rest);
    return gitArgsReadOnly(rest);
  }
  if (cmd === "sed") {
    if (args.length <= 4 && args[1] === "-n" && isValidSedNArg(args[2])) {
      return !(args[3] && escapes(host, args[3], ws, effCwd));
    }
    return false;
  }
  return false;
}

/** `isKnownSafeCommand(args, cwd, workspace)`: read-only commands whose paths stay in the workspace. */
export function isKnownSafeCommand(host: HostFacts, shell: GeminiShell | null, args: string[], cwd?: string): boolean {
  if (args.length === 0) return false;
  const a = args.map((x) => (x === "zsh" ? "bash" : x));
  if (isSafeToCallWithExec(host, a, cwd)) return true;
  if (a.length === 3 && a[0] === "bash" && (a[1] === "-lc" || a[1] === "-c")) {
    try {
      const script = a[2];
      if (/[()<>]/.test(script)) return false;
      const commands = splitCommands(shell, script);
      if (commands.length === 0) return false;
      return commands.every((c) => {
        const t = c.trim();
        if (!t) return true;
        const parsed = shellQuoteArgs(t);
        if (parsed.length === 0) return true;
        return isSafeToCallWithExec(host, parsed, cwd);
      });
    } catch {
      return false;
    }
  }
  return false;
}

/** `isDangerousCommand`: `rm -f/-rf`, `ln -s`, `sudo …`, `find -exec…`, `rg --pre…`, `git -c`, `git … --output`, `base64 -o`. */
export function isDangerousCommand(args: string[]): boolean {
  if (args.length === 0) return false;
  const cmd = args[0];
  if (cmd === "ln") {
    if (
      args.some(
        (a) => a === "-s" || a === "--symbolic" || (a.startsWith("-") && !a.startsWith("--") && a.includes("s")),
      )
    ) {
      return true;
    }
  }
  if (cmd === "rm") return args[1] === "-f" || args[1] === "-rf" || args[1] === "-fr";
  if (cmd === "sudo") return isDangerousCommand(args.slice(1));
  if (cmd === "find") return args.some((a) => FIND_UNSAFE.has(a));
  if (isRipgrep(cmd)) {
    return args.some(
      (a) => RG_UNSAFE_WITHOUT_ARGS.has(a) || RG_UNSAFE_WITH_ARGS.some((o) => a === o || a.startsWith(o + "=")),
    );
  }
  if (cmd === "git") {
    if (gitHasConfigOverride(args)) return true;
    const { idx, subcommand } = findGitSubcommand(args);
    if (!subcommand) return false;
    const rest = args.slice(idx + 1);
    if (subcommand === "branch") return !(gitArgsReadOnly(rest) && gitBranchReadOnly(rest));
    return !gitArgsReadOnly(rest);
  }
  if (cmd === "base64") return base64Unsafe(args);
  return false;
}

/** `containsGitCommand`: a `git` word at the start of a command (after `sudo`/`env`/`time`/operators/assignments). */
export function containsGitCommand(args: string[]): boolean {
  const allowedPredecessors = new Set(["sudo", "env", "time", "&&", "||", ";", "|", "&", "(", "\\n"]);
  return args.some((arg, index) => {
    const trimmed = arg.trim();
    if (!trimmed) return false;
    const base = path.basename(trimmed).toLowerCase();
    if (base !== "git" && base !== "git.exe") return false;
    let prev = index - 1;
    while (prev >= 0 && /^[a-zA-Z_][a-zA-Z0-9_]*=/.test(args[prev])) prev--;
    if (prev >= 0 && !allowedPredecessors.has(args[prev].toLowerCase())) return false;
    return true;
  });
}
