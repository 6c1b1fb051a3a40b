/**
 * over-broad and one-off. Over-broad: an allow that amounts to running arbitrary code or writing anywhere
 * that matters (the root, home or an ancestor of home). One-off: a rule that can only match one long exact
 * command or a generated path — it will never be used again, and it makes the list unreadable.
 */
import path from "node:path";
import { ruleTraitsOf } from "@/lib/agents";
import { dialectOf } from "@/lib/agents/dialects";
import { formatRule, type Grant, type Rule } from "@/lib/policy";
import { ruleGlob } from "@/lib/policy/paths";
import { ARBITRARY_CODE } from "@/lib/policy/shell/classify";
import { quote } from "./describe";
import type { Finding, LintInput, LintItem } from "./types";
import { enforced } from "./usable";

// Shells and interpreters that run a program read from standard input when given no arguments.
const READS_STDIN = new Set([
  ...["bash", "sh", "zsh", "dash", "ksh", "fish", "pwsh", "powershell"],
  ...["python", "python2", "python3", "node", "ruby", "perl", "php", "lua", "osascript", "xargs"],
]);

// Package managers whose bare prefix reaches `npm exec`/`dlx`-style "download and run anything".
const RUNS_ANYTHING = new Set(["npm", "pnpm", "yarn", "uv", "uvx", "pipx", "docker", "podman"]);

function shellReach(rule: Rule): string | null {
  const s = rule.specifier;
  if (!s)
    return `${rule.tool === "Eval" ? "evaluates any Lisp" : "runs any shell command"}: it is the same as never being asked`;
  if (s.kind !== "shell") return null;
  const p = s.pattern.trim();
  if (p.startsWith("*")) return `"${p}" starts with a wildcard, so it matches any program`;
  if (rule.tool === "Eval") return null;
  const words = p.split(" ");
  const base = path.posix.basename(words[0].replace(/\*$/, ""));
  const rest = words.slice(1);
  // The rest may only be flags (`-c`, `-e`) and a final wildcard for the rule to reach any argument.
  // `Bash(bash)`, `Bash(bash -s -- --yes)`: a shell or interpreter given only flags runs whatever is piped into it.
  if (!p.endsWith("*") && READS_STDIN.has(base) && rest.every((w) => w.startsWith("-")))
    return `${base} without a script runs whatever is piped into it (\`curl … | ${base}\` downloads and runs code)`;
  const open = p.endsWith("*") || (s.dialect === "prefix" && rest.every((w) => w.startsWith("-")));
  const onlyFlags = rest.every((w, i) => w.startsWith("-") || (i === rest.length - 1 && w === "*"));
  if (!open || !onlyFlags) return null;
  if (ARBITRARY_CODE.has(base))
    return `${base} with any arguments runs arbitrary code (an interpreter, a shell or a wrapper around any command)`;
  if (RUNS_ANYTHING.has(base) && rest.filter((w) => w !== "*").length === 0)
    return `${base} with any sub-command includes ${base === "docker" || base === "podman" ? "`run -v /:/host`, i.e. root on the machine" : "downloading and running any package"}`;
  return null;
}

const EDIT_TOOLS = new Set(["edit", "write", "edit_file", "write_file", "multiedit", "notebookedit", "applypatch"]);

/** Literal folder an absolute glob starts from (`/home/u/**` → `/home/u`). */
function globBase(glob: string): string {
  const segs = glob.split("/");
  const lit: string[] = [];
  for (const s of segs) {
    if (/[*?[\]{}()!+@]/.test(s)) break;
    lit.push(s);
  }
  return lit.join("/") || "/";
}

function inside(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir === "/" ? "/" : dir + "/");
}

function wideTree(dir: string, input: LintInput): string | null {
  const home = path.resolve(input.home);
  if (dir === "/" || dir === "") return "the whole file system";
  if (inside(home, dir))
    return dir === home
      ? "your home directory (.bashrc, .ssh, every project)"
      : `${dir}, which contains your home directory`;
  return null;
}

function editReach(rule: Rule, input: LintInput): string | null {
  if (!EDIT_TOOLS.has(rule.tool.toLowerCase()) || rule.specifier?.kind !== "path") return null;
  const ws = path.resolve(input.workspace);
  const env = { workspaceRoot: ws, cwd: ws, home: path.resolve(input.home) };
  const glob = ruleGlob(rule.specifier.pattern, dialectOf(rule.agent), rule.source, env, true);
  if (!glob.includes("**") || !glob.startsWith("/")) return null;
  const base = globBase(glob);
  if (inside(base, ws)) return null;
  const what = wideTree(base, input);
  return what ? `${rule.specifier.pattern} lets the agent write anywhere under ${what}, outside the workspace` : null;
}

function grantReach(g: Grant, input: LintInput): string | null {
  if (!g.recursive) return null;
  const what = wideTree(path.resolve(g.path), input);
  if (!what) return null;
  return g.access === "write"
    ? `a recursive write grant on ${g.path} lets the agent change anything under ${what}`
    : `a recursive read grant on ${g.path} unlocks every secret under ${what} (.ssh, .aws, .gnupg)`;
}

export function findOverBroad(input: LintInput, items: LintItem[]): Finding[] {
  const out: Finding[] = [];
  const push = (it: LintItem, why: string) =>
    out.push({ kind: "over-broad", severity: "error", entry: it.entry.id, message: `${quote(it)}: ${why}` });
  for (const it of items) {
    if (it.grant) {
      const why = grantReach(it.grant, input);
      if (why) push(it, why);
      continue;
    }
    const r = it.rule;
    if (!r || r.action !== "allow" || !enforced(r)) continue;
    const shellish = r.tool === "Shell" || r.tool === "Eval" || r.tool === "shell_command" || r.tool === "bash";
    const why = shellish ? shellReach(r) : editReach(r, input);
    if (why) {
      push(it, why);
      continue;
    }
    for (const g of r.profile?.fileSystem ?? []) {
      const w = grantReach({ ...g, path: g.path.replace(/^~(?=\/|$)/, input.home) }, input);
      if (w) {
        push(it, `its execution profile: ${w}`);
        break;
      }
    }
  }
  return out;
}

// Long hex runs, UUIDs, timestamps and mktemp names: parts of a path that the next run will not repeat.
const GENERATED =
  /\b[0-9a-f]{12,}\b|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-|\b\d{10,}\b|\btmp\.[A-Za-z0-9]{6,}|\/tmp\/[^\s/]*\d[^\s/]*/i;
const LONG = 100;

function oneOffReason(pattern: string): string | null {
  if (pattern.includes("\n") || /<<-?\s*['"]?\w+/.test(pattern))
    return "it contains a heredoc, so it matches that one text only";
  if (/(^|\s)(-m|--message|-F)\s*(["']|\S)/.test(pattern) && /\bcommit\b/.test(pattern))
    return "it contains a commit message, so it matches that one commit only";
  if (GENERATED.test(pattern)) return "it names a generated path or id that the next run will not repeat";
  if (pattern.length > LONG) return `it is a ${pattern.length}-character exact command`;
  return null;
}

/** A reusable rule for the same command family: the program and its sub-command, like "always allow" stores. */
function suggestion(rule: Rule): string | null {
  const words = rule.specifier?.kind === "shell" ? rule.specifier.pattern.split(/\s+/) : [];
  const base = words[0] ?? "";
  if (!base || ARBITRARY_CODE.has(path.posix.basename(base))) return null;
  const sub = words[1] && /^[a-z][\w:-]*$/.test(words[1]) ? `${base} ${words[1]}` : base;
  const family = ruleTraitsOf(rule.agent).shellFamilyAllow;
  if (family) return family.replace("{}", () => sub);
  return formatRule(
    { tool: "Shell", specifier: { kind: "shell", pattern: `${sub}:*`, dialect: "prefix" } },
    dialectOf(rule.agent),
  );
}

export function findOneOff(items: LintItem[]): Finding[] {
  const out: Finding[] = [];
  for (const it of items) {
    const r = it.rule;
    if (!r || r.action !== "allow" || !enforced(r) || !r.specifier) continue;
    const s = r.specifier;
    let why: string | null = null;
    let fix: string | null = null;
    if (s.kind === "shell" && !s.pattern.trim().endsWith("*")) {
      why = oneOffReason(s.pattern);
      fix = suggestion(r);
    } else if (s.kind === "path" && GENERATED.test(s.pattern)) {
      why = "it names a generated path that the next run will not repeat";
    }
    if (!why) continue;
    out.push({
      kind: "one-off",
      severity: "info",
      entry: it.entry.id,
      message: `${quote(it, 80)} looks like a one-off: ${why}. ${fix ? `Replace it with ${fix} if you want this kind of command allowed, or remove it` : "Remove it"}`,
    });
  }
  return out;
}
