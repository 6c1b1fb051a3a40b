/**
 * Finds and reads every Codex store for one working directory, as Codex loads them
 * (core/src/config_loader/mod.rs, core/src/exec_policy.rs collect_policy_files):
 *   /etc/codex/config.toml, /etc/codex/rules/*.rules          (system layer)
 *   /etc/codex/requirements.toml [rules] prefix_rules          (admin overlay, no allow)
 *   $CODEX_HOME/config.toml, $CODEX_HOME/rules/*.rules         (user layer; CODEX_HOME defaults to ~/.codex)
 *   <dir>/.codex/{config.toml,rules/*.rules,hooks.json}        (each dir from the project root down to cwd, only when trusted)
 * Paths are injectable (home, CODEX_HOME, the /etc/codex root) so tests never touch the real ones.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import type { Parser } from "web-tree-sitter";
import { readStoreBytes } from "@/lib/stores/read-store";
import { activeProjectTrust, parseCodexConfig, resolveModes, trustForDir, type ConfigToml } from "../config";
import { loadPolicy } from "../policy";
import { parseRequirements } from "../requirements";
import { parseRulesFile, type RulesFile } from "../rules-parse";
import type { CodexLayer } from "../types";
import type { CodexPaths, CodexStoreFile, CodexStores } from "../store-files";

export type { CodexPaths, CodexStoreFile, CodexStoreKind, CodexStores } from "../store-files";

async function kindAt(p: string): Promise<"file" | "dir" | "other" | undefined> {
  try {
    const s = await fs.stat(p);
    return s.isFile() ? "file" : s.isDirectory() ? "dir" : "other";
  } catch {
    return undefined;
  }
}

async function exists(p: string): Promise<boolean> {
  try {
    await fs.lstat(p);
    return true;
  } catch {
    return false;
  }
}

async function readText(file: string): Promise<{ exists: boolean; text: string; version: string; error?: string }> {
  const b = await readStoreBytes(file);
  if (!b.exists) return { exists: false, text: "", version: "missing" };
  if (b.decodeError) return { exists: true, text: "", version: b.version, error: b.decodeError };
  return { exists: true, text: b.text, version: b.version };
}

/** Every regular `*.rules` file directly in `dir`, sorted by path; symlinks and sub-folders are skipped as Codex does. */
export async function listRulesFiles(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT" || (e as NodeJS.ErrnoException).code === "ENOTDIR") return [];
    throw e;
  }
  return entries
    .filter((e) => e.isFile() && /^.+\.rules$/.test(e.name) && e.name !== ".rules")
    .map((e) => path.join(dir, e.name))
    .sort((a, b) => (Buffer.from(a) < Buffer.from(b) ? -1 : Buffer.from(a) > Buffer.from(b) ? 1 : 0));
}

/** Nearest ancestor of cwd holding any marker (default `.git`, file or folder), else cwd (find_project_root). */
export async function findProjectRoot(cwd: string, markers: readonly string[]): Promise<string> {
  if (markers.length === 0) return cwd;
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    for (const m of markers) if (await exists(path.join(dir, m))) return dir;
    if (dir === path.dirname(dir)) return cwd;
  }
}

/** The git repository root used for trust: for a worktree (`.git` file) the main repository's root. */
export async function findRepoRoot(cwd: string): Promise<string | undefined> {
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    const git = path.join(dir, ".git");
    const k = await kindAt(git);
    if (k === "dir") return dir;
    if (k === "file") {
      const text = await fs.readFile(git, "utf8").catch(() => "");
      const m = /^gitdir:\s*(.+)$/m.exec(text);
      const gitdir = m ? path.resolve(dir, m[1]!.trim()) : undefined;
      const wt = gitdir ? /^(.*)\/\.git\/worktrees\/[^/]+\/?$/.exec(gitdir) : null;
      return wt ? wt[1]! : dir;
    }
    if (dir === path.dirname(dir)) return undefined;
  }
}

/** Trust-map keys for a folder: its canonical path, then the path as given (normalized_project_trust_keys). */
async function trustKeys(dir: string): Promise<string[]> {
  const real = await fs.realpath(dir).catch(() => dir);
  return real === dir ? [dir] : [real, dir];
}

/** Read every Codex store for `paths.cwd` and load the policy as Codex would. */
export async function discoverCodexStores(input: CodexPaths, python: Parser): Promise<CodexStores> {
  const paths: Required<CodexPaths> = {
    home: input.home,
    codexHome: input.codexHome ?? path.join(input.home, ".codex"),
    etcRoot: input.etcRoot ?? "/etc/codex",
    cwd: path.resolve(input.cwd),
  };
  const files: CodexStoreFile[] = [];
  const rules: RulesFile[] = [];
  let fatal: CodexStores["fatal"];
  const configLayers: ConfigToml[] = [];

  const readConfig = async (
    file: string,
    layer: CodexLayer,
    active: boolean,
    dir?: string,
  ): Promise<ConfigToml | undefined> => {
    const r = await readText(file);
    const entry: CodexStoreFile = {
      path: file,
      kind: "config",
      layer,
      exists: r.exists,
      active,
      readOnly: layer === "system",
      text: r.text,
      version: r.version,
      ...(dir ? { dir } : {}),
    };
    files.push(entry);
    if (r.error) entry.error = { line: 1, message: r.error };
    if (!r.exists || r.error) return undefined;
    const parsed = parseCodexConfig(r.text);
    if (!parsed.ok) {
      entry.error = { line: parsed.line, message: parsed.message };
      entry.readOnly = true;
      if (active) fatal ??= { file, line: parsed.line, message: parsed.message };
      return undefined;
    }
    return parsed.config;
  };

  const readRulesDir = async (dir: string, layer: CodexLayer, active: boolean, note?: string, projectDir?: string) => {
    let list: string[];
    try {
      list = await listRulesFiles(dir);
    } catch (e) {
      const message = `failed to read rules files from ${dir}: ${(e as Error).message}`;
      if (active) fatal ??= { file: dir, line: 0, message };
      return;
    }
    for (const file of list) {
      const r = await readText(file);
      const parsed = parseRulesFile(file, r.error ? "" : r.text, layer, python);
      if (r.error) parsed.status = { kind: "broken", line: 1, message: r.error };
      const entry: CodexStoreFile = {
        path: file,
        kind: "rules",
        layer,
        exists: true,
        active,
        readOnly: layer === "system" || parsed.status.kind !== "ok",
        text: r.text,
        version: r.version,
        ...(projectDir ? { dir: projectDir } : {}),
      };
      if (note) entry.note = note;
      if (parsed.status.kind === "broken") entry.error = { line: parsed.status.line, message: parsed.status.message };
      if (parsed.status.kind === "opaque") entry.note = `read-only: ${parsed.status.reason}`;
      entry.rules = parsed;
      files.push(entry);
      if (active) rules.push(parsed);
    }
  };

  // System layer.
  const system = await readConfig(path.join(paths.etcRoot, "config.toml"), "system", true);
  if (system) configLayers.push(system);
  await readRulesDir(path.join(paths.etcRoot, "rules"), "system", true);
  // Requirements overlay.
  const reqFile = path.join(paths.etcRoot, "requirements.toml");
  const req = await readText(reqFile);
  let requirementRules: RulesFile["prefixRules"] = [];
  const reqEntry: CodexStoreFile = {
    path: reqFile,
    kind: "requirements",
    layer: "requirements",
    exists: req.exists,
    active: true,
    readOnly: true,
    text: req.text,
    version: req.version,
  };
  files.push(reqEntry);
  if (req.exists && !req.error) {
    const parsed = parseRequirements(reqFile, req.text);
    if (parsed.ok) requirementRules = reqEntry.prefixRules = parsed.rules;
    else {
      reqEntry.error = { line: parsed.line, message: parsed.message };
      fatal ??= { file: reqFile, line: parsed.line, message: parsed.message };
    }
  }
  // User layer.
  const user = await readConfig(path.join(paths.codexHome, "config.toml"), "user", true);
  if (user) configLayers.push(user);
  await readRulesDir(path.join(paths.codexHome, "rules"), "user", true);
  files.push(await hooksEntry(path.join(paths.codexHome, "hooks.json"), "user", true));

  // Project layers, root first.
  const merged = Object.assign({}, ...configLayers) as ConfigToml;
  const markers = merged.project_root_markers ?? [".git"];
  const projectRoot = await findProjectRoot(paths.cwd, markers);
  const repoRoot = await findRepoRoot(paths.cwd);
  const projects = { ...system?.projects, ...user?.projects };
  const rootKeys = await trustKeys(projectRoot);
  const repoKeys = repoRoot ? await trustKeys(repoRoot) : undefined;
  const dirs: string[] = [];
  for (let d = paths.cwd; ; d = path.dirname(d)) {
    dirs.unshift(d);
    if (d === projectRoot || d === path.dirname(d)) break;
  }
  const codexHomeReal = await fs.realpath(paths.codexHome).catch(() => path.resolve(paths.codexHome));
  for (const dir of dirs) {
    const dot = path.join(dir, ".codex");
    if ((await kindAt(dot)) !== "dir") continue;
    const dotReal = await fs.realpath(dot).catch(() => dot);
    if (path.resolve(dot) === path.resolve(paths.codexHome) || dotReal === codexHomeReal) continue;
    const trust = trustForDir(projects, {
      dir: await trustKeys(dir),
      projectRoot: rootKeys,
      ...(repoKeys ? { repoRoot: repoKeys } : {}),
    });
    const active = trust.level === "trusted";
    const note = active
      ? undefined
      : trust.level === "untrusted"
        ? `${trust.key} is marked untrusted in config.toml: Codex ignores this folder's rules, config and hooks`
        : `${repoRoot ?? projectRoot} is not a trusted project: Codex ignores this folder's rules, config and hooks`;
    const cfg = await readConfig(path.join(dot, "config.toml"), "project", active, dir);
    if (note) files[files.length - 1]!.note = note;
    if (active && cfg) configLayers.push(cfg);
    await readRulesDir(path.join(dot, "rules"), "project", active, note, dir);
    const hooks = await hooksEntry(path.join(dot, "hooks.json"), "project", active, dir);
    if (note) hooks.note = note;
    files.push(hooks);
  }

  const activeTrust = activeProjectTrust(projects, {
    cwd: await trustKeys(paths.cwd),
    ...(repoKeys ? { repoRoot: repoKeys } : {}),
  });
  const policy = loadPolicy(rules, requirementRules, { cwd: paths.cwd, home: paths.home });
  const modes = resolveModes({ layers: configLayers, ...(activeTrust ? { activeTrust } : {}) });
  return {
    paths,
    projectRoot,
    ...(repoRoot ? { repoRoot } : {}),
    ...(activeTrust ? { activeTrust } : {}),
    files,
    rules,
    policy,
    modes,
    ...(user ? { userConfig: user } : {}),
    ...(fatal ? { fatal } : {}),
  };
}

async function hooksEntry(file: string, layer: CodexLayer, active: boolean, dir?: string): Promise<CodexStoreFile> {
  const r = await readText(file);
  const entry: CodexStoreFile = {
    path: file,
    kind: "hooks",
    layer,
    exists: r.exists,
    active,
    readOnly: false,
    text: r.text,
    version: r.version,
    ...(dir ? { dir } : {}),
  };
  if (r.error) entry.error = { line: 1, message: r.error };
  return entry;
}
