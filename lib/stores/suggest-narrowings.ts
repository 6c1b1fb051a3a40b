import path from "node:path";
import { expandHome } from "./home-paths";
import type { Entry } from "./types";

/** Common sub-commands offered when a rule allows a whole command (`git:*`). */
const SUBCOMMANDS: Record<string, string[]> = {
  git: ["status", "log", "diff", "show", "branch", "fetch"],
  npm: ["test", "run", "ci", "ls"],
  pnpm: ["test", "run", "install"],
  yarn: ["test", "run"],
  cargo: ["build", "test", "check", "fmt"],
  docker: ["ps", "images", "logs"],
  kubectl: ["get", "describe", "logs"],
  go: ["build", "test", "vet"],
  gh: ["pr view", "issue view", "run view"],
  npx: ["tsc", "vitest", "eslint"],
};

export interface SuggestOptions {
  /** Sub-folder names of an absolute folder (empty when it does not exist). */
  listDir?: (absPath: string) => string[];
  workspace?: string;
  home?: string;
  limit?: number;
}

const quote = (v: string) => (/[\s"]/.test(v) ? `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"` : v);

/** Candidate SPECs for `narrowEntry` that are narrower by construction; the engine still proves each. */
export function suggestNarrowings(entry: Entry, options: SuggestOptions = {}): string[] {
  const out: string[] = [];
  const limit = options.limit ?? 12;
  const home = options.home ?? "";
  const dirs = (abs: string) => {
    try {
      return (options.listDir?.(abs) ?? [])
        .filter((d) => !d.startsWith(".git"))
        .sort()
        .slice(0, 6);
    } catch {
      return [];
    }
  };
  if (entry.kind === "grant" && entry.grant) {
    if (entry.grant.recursive) out.push("exact");
    if (entry.grant.access === "write") out.push("read");
    for (const d of dirs(expandHome(entry.grant.path, home)))
      out.push(`path:${quote(joinKeepingTilde(entry.grant.path, d))}`);
    return out.slice(0, limit);
  }
  if (entry.action === "allow") out.push("ask");
  if (entry.action === "ask") out.push("deny");
  if (entry.profile) {
    if (entry.profile.network) out.push("network:off");
    for (const g of entry.profile.fileSystem) {
      out.push(`drop-fs:${quote(g.path)}`);
      if (g.recursive) out.push(`fs-exact:${quote(g.path)}`);
      if (g.access === "write") out.push(`fs-read:${quote(g.path)}`);
    }
  }
  if (entry.store.format === "mevedel-plist") out.push(...plistSpecifierNarrowings(entry, dirs, options));
  else out.push(...ruleTextNarrowings(entry, dirs, options));
  return [...new Set(out)].slice(0, limit);
}

function joinKeepingTilde(base: string, child: string): string {
  return base.endsWith("/") ? `${base}${child}` : `${base}/${child}`;
}

/** `git:*` / `git *` → `git status:*`, keeping the author's suffix style. */
function shellNarrowings(pattern: string): string[] {
  const m = /^(.*?)(:\*| \*)$/.exec(pattern);
  if (!m) return [];
  const [, prefix, suffix] = m;
  const words = prefix.trim().split(/\s+/);
  const subs = SUBCOMMANDS[words[0]];
  if (!subs || words.length > 1) return [];
  return subs.map((s) => `${prefix} ${s}${suffix}`);
}

function ruleTextNarrowings(entry: Entry, dirs: (abs: string) => string[], options: SuggestOptions): string[] {
  const m = /^([^()]+?)(?:\(([\s\S]*)\))?$/.exec(entry.rule.trim());
  if (!m) return [];
  const [, tool, spec] = m;
  const out: string[] = [];
  if (/^mcp__[^_]+(?:__\*)?$/i.test(tool) || /^mcp__.+__\*$/.test(tool)) {
    const server = tool.replace(/__\*$/, "");
    out.push(`${server}__get_*`, `${server}__list_*`);
    return out;
  }
  const isShell = /^(bash|shell)$/i.test(tool);
  if (isShell && spec) return shellNarrowings(spec).map((p) => `${tool}(${p})`);
  const isPath = /^(read|edit|write|glob|grep)$/i.test(tool);
  if (isPath && options.workspace) {
    const base = !spec || spec === "*" || spec === "**" ? "" : spec.replace(/\/\*\*$/, "");
    if (base.includes("*")) return out;
    const abs = path.resolve(options.workspace, base.replace(/^\.?\//, ""));
    for (const d of dirs(abs)) out.push(`${tool}(${base ? `${base}/` : ""}${d}/**)`);
  }
  return out;
}

function plistSpecifierNarrowings(entry: Entry, dirs: (abs: string) => string[], options: SuggestOptions): string[] {
  const pattern = /:pattern "((?:[^"\\]|\\.)*)"/.exec(entry.rule)?.[1];
  if (pattern) {
    const m = /^(\S+)( ?\*)$/.exec(pattern);
    const subs = m && SUBCOMMANDS[m[1]];
    return subs ? subs.map((s) => `pattern:${quote(`${m[1]} ${s}${m[2]}`)}`) : [];
  }
  const p = /:path "((?:[^"\\]|\\.)*)"/.exec(entry.rule)?.[1];
  if (p && options.workspace && !/\*\*?$/.test(p.replace(/\/\*\*$/, ""))) {
    const base = p.replace(/\/\*\*$/, "");
    const abs = path.resolve(options.workspace, expandHome(base, options.home ?? ""));
    return dirs(abs).map((d) => `path:${quote(`${base}/${d}/**`)}`);
  }
  return [];
}
