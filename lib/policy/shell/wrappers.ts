/** Strip `VAR=value` arguments and process wrappers (timeout, nice, env, sudo, …) from the front of an argv. */

const base = (s: string) => s.slice(s.lastIndexOf("/") + 1);
const ASSIGN_RE = /^[A-Za-z_][A-Za-z0-9_]*=/;

// Options of each wrapper that consume the next word.
const WITH_VALUE: Record<string, Set<string>> = {
  timeout: new Set(["-s", "--signal", "-k", "--kill-after"]),
  nice: new Set(["-n", "--adjustment"]),
  env: new Set(["-u", "--unset", "-C", "--chdir", "-S", "--split-string"]),
  sudo: new Set([
    "-u",
    "-g",
    "-h",
    "-p",
    "-C",
    "-r",
    "-t",
    "-U",
    "-T",
    "-D",
    "--user",
    "--group",
    "--host",
    "--prompt",
  ]),
  stdbuf: new Set(["-i", "-o", "-e", "--input", "--output", "--error"]),
  xargs: new Set([
    "-I",
    "-L",
    "-n",
    "-P",
    "-s",
    "-d",
    "-E",
    "-a",
    "--max-args",
    "--max-procs",
    "--delimiter",
    "--arg-file",
    "--max-lines",
    "--replace",
  ]),
  exec: new Set(["-a"]),
  time: new Set(["-f", "-o", "--format", "--output"]),
  ionice: new Set(["-c", "-n", "-t", "--class", "--classdata"]),
  chrt: new Set(["-T", "-P", "-D", "--sched-runtime", "--sched-period", "--sched-deadline"]),
  taskset: new Set([]),
  setsid: new Set([]),
};
// Wrappers that take one positional argument before the command: chrt's priority, taskset's mask or cpu list.
const POSITIONAL: Record<string, RegExp> = {
  chrt: /^\d+$/,
  taskset: /^(0x)?[0-9a-fA-F,-]+$/,
};
const WRAPPERS = new Set([
  "timeout",
  "time",
  "nice",
  "env",
  "nohup",
  "sudo",
  "stdbuf",
  "command",
  "builtin",
  "xargs",
  "noglob",
  "exec",
  "doas",
  "ionice",
  "chrt",
  "taskset",
  "setsid",
]);

/** Result of stripping: the wrapped command and what was removed. */
export interface Stripped {
  core: string[];
  wrappers: string[];
  assignments: string[];
}

/** Remove wrappers repeatedly (`sudo env FOO=1 timeout 5 rm x` → `rm x`). `command -v x` is a lookup, not a wrapper. */
export function stripWrappers(argv: string[]): Stripped {
  const wrappers: string[] = [];
  const assignments: string[] = [];
  let i = 0;
  let lastWrapper = -1;
  for (let guard = 0; guard < 32 && i < argv.length; guard++) {
    const word = argv[i];
    if (ASSIGN_RE.test(word)) {
      assignments.push(word);
      i++;
      continue;
    }
    const name = base(word);
    if (!WRAPPERS.has(name)) break;
    lastWrapper = i;
    if (name === "command" && (argv[i + 1] === "-v" || argv[i + 1] === "-V")) break;
    wrappers.push(name);
    i++;
    const takes = WITH_VALUE[name] ?? new Set<string>();
    while (i < argv.length) {
      const a = argv[i];
      if (a === "--") {
        i++;
        break;
      }
      if (name === "env" && ASSIGN_RE.test(a)) {
        assignments.push(a);
        i++;
        continue;
      }
      if (name === "nice" && /^-\d+$/.test(a)) {
        i++;
        continue;
      }
      if (!a.startsWith("-") || a === "-") break;
      if (takes.has(a)) {
        i += 2;
        continue;
      }
      i++;
    }
    // timeout's duration is a positional argument before the command.
    if (name === "timeout" && i < argv.length && /^\d+(\.\d+)?[smhd]?$/.test(argv[i])) i++;
    else if (POSITIONAL[name] && i < argv.length - 1 && POSITIONAL[name].test(argv[i])) i++;
  }
  // A wrapper with nothing to run (`env`, `time`) is the command itself.
  if (i >= argv.length && lastWrapper >= 0) {
    wrappers.pop();
    return {
      core: argv.slice(lastWrapper),
      wrappers,
      assignments: assignments.filter((a) => argv.indexOf(a) < lastWrapper),
    };
  }
  return { core: argv.slice(i), wrappers, assignments };
}

export { base as basename };
