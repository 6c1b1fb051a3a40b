/**
 * Claude Code's documented reading of one Bash command (permissions page, "Bash"): its subcommands with the
 * allow-side view, the built-in read-only set, the cases that always prompt, and the files it names for reading
 * and writing (Read/Edit rules, protected paths and working directories apply to those).
 */
import type { CallFacts } from "../call";
import { isInside, normalizeAbs, resolveCallPath, type PathEnv } from "../paths";
import { partWords, wordPath } from "../shell-paths";
import { isReadOnlyPart } from "../shell/classify";
import { basename } from "../shell/wrappers";
import type { PolicyContext, ShellPart } from "../types";
import { allowView, type AllowView } from "./strip";

/** "Commands longer than 10,000 characters always prompt because they exceed what the analysis parses." */
export const MAX_COMMAND = 10_000;

/**
 * "The set includes `ls`, `cat`, `echo`, `pwd`, `head`, `tail`, `grep`, `find`, `wc`, `which`, `diff`, `stat`, `du`,
 * `cd`, and read-only forms of `git`" (permissions#read-only-commands); `sort`, `sed` and `file` are named by the
 * same section's prompting cases. The full set is not published: nothing else counts as read-only (stricter).
 */
const READ_ONLY = new Set([
  "ls",
  "cat",
  "echo",
  "pwd",
  "head",
  "tail",
  "grep",
  "find",
  "wc",
  "which",
  "diff",
  "stat",
  "du",
  "cd",
  "git",
  "sort",
  "sed",
  "file",
]);
/** "commands with write-capable or exec-capable flags, such as `find`, `sort`, `sed`, and `git`, prompt when an unquoted glob is present". */
const GLOB_PROMPTS = new Set(["find", "sort", "sed", "git"]);
/** Commands whose operands are files they write (Edit rules, protected paths). */
const WRITERS = new Set([
  "touch",
  "mkdir",
  "rm",
  "rmdir",
  "truncate",
  "chmod",
  "chown",
  "chgrp",
  "ln",
  "shred",
  "unlink",
]);

/** One subcommand as Claude Code weighs it. */
export interface CcPart {
  part: ShellPart;
  /** What allow rules see (documented wrappers and safe assignments stripped). */
  view: AllowView;
  /** In the read-only set on its own (redirect targets are checked apart). */
  readOnly: boolean;
  /** Path arguments of a read-only part outside the working directories (such a part is not free). */
  outside: string[];
  /** Folder the part runs in, after earlier `cd`s of the same command; null when it cannot be traced. */
  cwd: string | null;
}

export interface CcShell {
  /** Subcommands of the line and its substitutions, in order (not `bash -c` payloads: the outer command covers them). */
  parts: CcPart[];
  /** Reasons Claude Code always prompts: no read-only pass, allow rule or mode approves the command. */
  prompts: string[];
  /** Files the command names for reading (Read deny/ask rules apply). */
  reads: string[];
  /** Files the command writes (Edit deny/ask rules, Read deny rules, protected paths). */
  writes: string[];
  /** Output redirection and `tee` targets: each needs an Edit allow rule, or a mode that edits in the working directories. */
  targets: string[];
  /** Redirection or `tee` targets that start with `~`, contain a glob or a variable: always need approval. */
  unresolved: string[];
  /** Input redirection targets (`< file`): inside the working directories, or covered by a Read allow rule. */
  inputs: string[];
  /** A `cd` changed the folder (later relative words resolve against it). */
  changedDir: boolean;
}

const cache = new WeakMap<CallFacts, CcShell>();

/** Folders Claude Code calls working directories: the workspace and its additional directories. */
export function workingDirs(ctx: PolicyContext): string[] {
  const env = { workspaceRoot: ctx.workspaceRoot, cwd: ctx.workspaceRoot, home: ctx.home };
  return [ctx.workspaceRoot, ...(ctx.additionalDirectories ?? [])].map((d) => resolveCallPath(d, env));
}

export const insideAny = (p: string, dirs: string[]) => dirs.some((d) => isInside(p, d));

/** Unquoted, unescaped glob characters in a word as written. */
export function unquotedGlob(src: string): boolean {
  let quote: string | null = null;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"') i++;
      continue;
    }
    if (c === "\\") i++;
    else if (c === "'" || c === '"') quote = c;
    else if (c === "*" || c === "?" || c === "[") return true;
  }
  return false;
}

/** A redirect or tee target Claude Code cannot check: `~…`, a glob, or an expansion. */
const uncheckable = (src: string, value: string) => src.startsWith("~") || /[*?[\]$`]/.test(value) || unquotedGlob(src);

function resolveWord(w: string, env: PathEnv, cwd: string | null): string | null {
  if (cwd === null && !w.startsWith("/") && !w.startsWith("~") && !/^\$\{?HOME\b/.test(w)) return null;
  const r = wordPath(w, { ...env, cwd: cwd ?? env.cwd });
  return r && "path" in r ? r.path : null;
}

/** Positional operands (options dropped, `--` honoured). */
function operands(args: string[]): string[] {
  const out: string[] = [];
  let opts = true;
  for (const a of args) {
    if (opts && a === "--") opts = false;
    else if (opts && a.startsWith("-") && a !== "-") continue;
    else out.push(a);
  }
  return out;
}

/** Files a part writes besides its redirections. */
function writtenOperands(core: string[]): { files: string[]; tee: string[] } {
  const name = basename(core[0] ?? "");
  const args = core.slice(1);
  const ops = operands(args);
  if (name === "tee") return { files: [], tee: ops };
  if (WRITERS.has(name))
    return { files: name === "chmod" || name === "chown" || name === "chgrp" ? ops.slice(1) : ops, tee: [] };
  if (name === "mv") return { files: ops, tee: [] };
  if ((name === "cp" || name === "install") && ops.length) return { files: [ops[ops.length - 1]], tee: [] };
  if (name === "dd") return { files: args.filter((a) => a.startsWith("of=")).map((a) => a.slice(3)), tee: [] };
  if (name === "sed" && args.some((a) => /^-[a-zA-Z]*i|^--in-place/.test(a))) {
    const script = args.some((a) => a === "-e" || a === "-f" || a.startsWith("--expression"));
    return { files: script ? ops : ops.slice(1), tee: [] };
  }
  return { files: [], tee: [] };
}

/** Claude Code's reading of the call's command (cached per call). */
export function ccShell(f: CallFacts, ctx: PolicyContext): CcShell {
  const hit = cache.get(f);
  if (hit) return hit;
  const a = f.shell!;
  const env = f.env;
  const dirs = workingDirs(ctx);
  const prompts: string[] = [];
  const reads: string[] = [];
  const writes: string[] = [];
  const targets: string[] = [];
  const unresolved: string[] = [];
  const inputs: string[] = [];
  const parts: CcPart[] = [];
  if (a.command.length > MAX_COMMAND)
    prompts.push(`longer than ${MAX_COMMAND.toLocaleString("en")} characters (Claude Code always prompts)`);
  // The docs list `&` as a separator; Claude Code 2.1.332 prompts for it anyway ("This command uses the `&`
  // background operator, which defers execution past approval-time safety checks"), as the oracle recorded.
  if (a.background) prompts.push("runs a command in the background with `&` (Claude Code prompts)");
  if (!a.allowable)
    prompts.push(
      `Claude Code cannot fully parse it (${a.unsupported.join(", ") || "syntax error"}): it asks instead of treating it as read-only`,
    );

  let cur: string | null = env.cwd;
  let changedDir = false;
  let sawGit = false;
  let relativeRedirectAfterCd = false;
  const track = (w: string, list: string[], c: string | null) => {
    const p = resolveWord(w, env, c);
    if (p) list.push(p);
  };

  for (const p of a.parts) {
    const core = p.core.length ? p.core : p.argv;
    const name = basename(core[0] ?? "");
    const here = p.origin === "top" ? cur : p.origin === "substitution" ? cur : env.cwd;
    if (name === "git") sawGit = true;

    // Files named for reading: every word of every command except what echo/printf print (deny is aggressive).
    if (name !== "echo" && name !== "printf") for (const w of partWords(p)) track(w, reads, here);
    for (const r of p.reads ?? []) {
      track(r, reads, here);
      // "A target that contains a glob pattern, or a relative path that follows a `cd` in the same command, needs
      // your approval even when an allow rule covers it."
      const t = uncheckable(r, r) || (changedDir && !r.startsWith("/")) ? null : resolveWord(r, env, here);
      if (t === null) unresolved.push(r);
      else inputs.push(t);
    }

    // Files written: redirections and tee (checked against Edit rules and the working directories), plus the
    // operands of commands that write them.
    const { files, tee } = writtenOperands(core);
    const srcOf = (w: string) => {
      const i = p.argv.indexOf(w);
      return i >= 0 && p.src?.[i] !== undefined ? p.src[i] : w;
    };
    for (const w of [...p.writes, ...tee]) {
      if (changedDir && !w.startsWith("/")) relativeRedirectAfterCd = true;
      if (uncheckable(srcOf(w), w)) {
        unresolved.push(w);
        continue;
      }
      const t = resolveWord(w, env, here);
      if (t === null) unresolved.push(w);
      else {
        targets.push(t);
        writes.push(t);
      }
    }
    for (const w of files) track(w, writes, here);

    if (p.origin === "payload") continue;
    const view = allowView(p);
    let readOnly = READ_ONLY.has(p.argv[0] ?? "") && isReadOnlyPart({ ...p, writes: [] });
    const outside: string[] = [];
    if (p.argv[0] === "cd" && p.origin === "top") {
      // "A `cd` into a path inside your working directory or an additional directory is also read-only."
      const target: string | null =
        p.argv[1] === undefined ? env.home : p.argv[1] === "-" ? null : resolveWord(p.argv[1], env, cur);
      const next: string | null = target !== null && !p.dynamic && p.argv.length <= 2 ? normalizeAbs(target) : null;
      readOnly = next !== null && insideAny(next, dirs);
      if (next !== null && !readOnly) outside.push(next);
      if (next !== cur) changedDir = true;
      cur = next;
    } else if (readOnly) {
      // Read-only commands are free only "within the working directory and additional directories"; after a `cd`
      // elsewhere they read that folder even without naming it (`cd /etc && ls`).
      if (here === null || !insideAny(here, dirs)) outside.push(here ?? "a folder that cannot be traced");
      const words = p.argv[0] === "echo" ? [] : [...partWords(p), ...(p.reads ?? [])];
      for (const w of words) {
        const r = wordPath(w, { ...env, cwd: here ?? env.cwd });
        if (!r) continue;
        if ("unknown" in r || here === null) outside.push(w);
        else if (!insideAny(r.path, dirs)) outside.push(r.path);
      }
      if (p.argv[0] === "file" && p.argv.some((x) => /^(-[a-zA-Z]*[mf]|--magic-file|--files-from)/.test(x)))
        prompts.push("`file -m`/`-f` opens the paths named in the flag's value (Claude Code prompts)");
    }
    if (GLOB_PROMPTS.has(view.argv[0] ?? "") && (p.src ?? []).slice(1).some(unquotedGlob))
      prompts.push(
        `unquoted glob in \`${view.argv[0]}\`, which has write-capable flags (Claude Code prompts; the cockpit does not let an allow rule lift it: stricter than Claude Code)`,
      );
    if (p.argv.some((x) => x.startsWith("\\\\"))) prompts.push("names a network (UNC) path (Claude Code prompts)");
    parts.push({ part: p, view, readOnly, outside, cwd: here });
  }
  // Redirections of a whole list (`cd app && ls > out.txt` parses as `(cd app && ls) > out.txt`).
  const own = new Set(a.parts.flatMap((p) => p.writes));
  for (const w of a.writes) {
    if (own.has(w)) continue;
    if (changedDir && !w.startsWith("/")) relativeRedirectAfterCd = true;
    const t = uncheckable(w, w) ? null : resolveWord(w, env, changedDir ? cur : env.cwd);
    if (t === null) unresolved.push(w);
    else {
      targets.push(t);
      writes.push(t);
    }
  }
  for (const r of a.reads ?? [])
    if (!a.parts.some((p) => p.reads?.includes(r))) {
      track(r, reads, cur);
      const t = uncheckable(r, r) || (changedDir && !r.startsWith("/")) ? null : resolveWord(r, env, cur);
      if (t === null) unresolved.push(r);
      else inputs.push(t);
    }
  if (changedDir && sawGit)
    prompts.push("`cd` into another folder with `git` (Claude Code prompts: git may run that folder's hooks)");
  if (relativeRedirectAfterCd)
    prompts.push("a relative redirect after `cd` (Claude Code cannot tell which folder it resolves against)");
  const out: CcShell = {
    parts,
    prompts: [...new Set(prompts)],
    reads: [...new Set(reads)],
    writes: [...new Set(writes)],
    targets: [...new Set(targets)],
    unresolved,
    inputs: [...new Set(inputs)],
    changedDir,
  };
  cache.set(f, out);
  return out;
}
