import { execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  chownSync,
  lchownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { startFakeApi, type ScriptedCall, type ToolResult } from "./fake-api";

/** The OS user Claude Code runs as when we are root: unprivileged, no home, no login shell. */
export const ORACLE_USER = "claude-oracle";

export interface OracleUser {
  name: string;
  uid: number;
  gid: number;
}

/** As root: the unprivileged user (created with useradd when missing). Otherwise null: we already are one. */
export function ensureOracleUser(): OracleUser | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(execFileSync("id", [flag, ORACLE_USER], { encoding: "utf8" }).trim());
  try {
    return { name: ORACLE_USER, uid: id("-u"), gid: id("-g") };
  } catch {
    execFileSync("useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", ORACLE_USER]);
    return { name: ORACLE_USER, uid: id("-u"), gid: id("-g") };
  }
}

/**
 * Commands that would do something if Claude Code ran them: in the scratch `bin/`, first on PATH, each only
 * prints and logs its name and arguments. The generated calls use only these and shell builtins or harmless
 * real commands (echo, true, ls, cat, touch, mkdir of scratch paths). Not `node`: the cockpit's command hook
 * runs it. Not `find` or `grep`: Claude Code's
 * shell defines them as functions running its bundled bfs/ugrep, so calls give them a folder that does not exist.
 */
export const SHIMMED = [
  "rm",
  "rmdir",
  "mv",
  "cp",
  "chmod",
  "chown",
  "git",
  "npm",
  "npx",
  "curl",
  "wget",
  "make",
  "docker",
  "sudo",
  "ssh",
  "scp",
  "python3",
  "pip",
  "aws",
  "gh",
  "sed",
  "tee",
  "xargs",
  "timeout",
  "nice",
  "nohup",
  "env",
  "watch",
  "setsid",
  "flock",
  "dd",
  "truncate",
  "ln",
  "cargo",
  "terraform",
  "kubectl",
];

export interface Scratch {
  root: string;
  home: string;
  /** The workspace Claude Code runs in (its working directory). */
  workspace: string;
  /** Every command a shim ran, one line each. */
  ranLog: string;
  /** Every hook payload the recorder hook saw, one JSON per line. */
  hookLog: string;
  cleanup(): void;
}

/** A scratch HOME and workspace under the OS temp folder, owned by the oracle user, never inside the repository. */
export function makeScratch(user: OracleUser | null): Scratch {
  const root = mkdtempSync(path.join(os.tmpdir(), "claude-oracle-"));
  const home = path.join(root, "home");
  const workspace = path.join(root, "ws");
  const bin = path.join(root, "bin");
  for (const dir of [home, workspace, bin, path.join(home, ".claude"), path.join(workspace, ".claude")])
    mkdirSync(dir, { recursive: true });
  const ranLog = path.join(root, "ran.log");
  const hookLog = path.join(root, "hooks.jsonl");
  for (const name of SHIMMED) {
    const shim = path.join(bin, name);
    writeFileSync(shim, `#!/bin/sh\necho "shim ${name} $*" >> '${ranLog}'\necho "shim ${name} $*"\n`);
    chmodSync(shim, 0o755);
  }
  writeFileSync(ranLog, "");
  writeFileSync(hookLog, "");
  return {
    root,
    home,
    workspace,
    ranLog,
    hookLog,
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Hands the scratch tree to the oracle user (after the settings files are written). */
export function chownScratch(scratch: Scratch, user: OracleUser | null): void {
  if (!user) return;
  const walk = (p: string) => {
    lchownSync(p, user.uid, user.gid);
    for (const e of readdirSync(p, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(p, e.name));
      else lchownSync(path.join(p, e.name), user.uid, user.gid);
    }
  };
  walk(scratch.root);
  chmodSync(scratch.root, 0o700);
}

/** A command hook that appends the payload to the hook log and answers nothing (Claude Code's own flow decides). */
export function recorderHook(scratch: Scratch): { type: "command"; command: string } {
  return { type: "command", command: `/bin/cat >> '${scratch.hookLog}'; /bin/echo >> '${scratch.hookLog}'` };
}

export function readHookLog(scratch: Scratch): Record<string, unknown>[] {
  return readFileSync(scratch.hookLog, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

export interface ClaudeResult {
  is_error?: boolean;
  result?: string;
  num_turns?: number;
  permission_denials?: { tool_name: string; tool_use_id: string; tool_input: Record<string, unknown> }[];
  [key: string]: unknown;
}

export interface RunOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
  /** `--output-format json`'s object, when stdout was one. */
  result: ClaudeResult | null;
  toolResults: ToolResult[];
  requests: number;
  seconds: number;
}

export interface RunOptions {
  bin: string;
  user: OracleUser | null;
  scratch: Scratch;
  calls: ScriptedCall[];
  /** Extra flags, e.g. ["--permission-mode", "acceptEdits"]. */
  args?: string[];
  env?: Record<string, string>;
  timeoutMs?: number;
}

/**
 * Runs the real `claude -p … --output-format json` offline: the model is the scripted stand-in, the process
 * the oracle user with the scratch HOME, workspace as working directory, shims first on PATH.
 */
export async function runClaude(o: RunOptions): Promise<RunOutcome> {
  const api = await startFakeApi(o.calls);
  const started = Date.now();
  try {
    const env: Record<string, string> = {
      PATH: `${path.join(o.scratch.root, "bin")}:/usr/local/bin:/usr/bin:/bin`,
      HOME: o.scratch.home,
      USER: o.user?.name ?? os.userInfo().username,
      SHELL: "/bin/bash",
      LANG: "C.UTF-8",
      TMPDIR: path.join(o.scratch.root, "tmp"),
      ANTHROPIC_BASE_URL: api.url,
      ANTHROPIC_API_KEY: "sk-ant-oracle-offline",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
      ...o.env,
    };
    mkdirSync(env.TMPDIR!, { recursive: true });
    if (o.user) chownSync(env.TMPDIR!, o.user.uid, o.user.gid);
    const child = spawn(o.bin, ["-p", "Run the scripted tool calls.", "--output-format", "json", ...(o.args ?? [])], {
      cwd: o.scratch.workspace,
      env: env as NodeJS.ProcessEnv,
      uid: o.user?.uid,
      gid: o.user?.gid,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    const timer = setTimeout(() => child.kill("SIGKILL"), o.timeoutMs ?? 120_000);
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    clearTimeout(timer);
    let result: ClaudeResult | null = null;
    try {
      result = JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as ClaudeResult;
    } catch {
      result = null;
    }
    return {
      code,
      stdout,
      stderr,
      result,
      toolResults: [...api.results],
      requests: api.requests.length,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await api.close();
  }
}
