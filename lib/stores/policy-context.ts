import { readlinkSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { env } from "@/lib/config/env";
import { normalizeMode, type Dialect, type Mode, type PolicyContext, type ShellParser } from "@/lib/policy";
import type { PolicyInputs } from "./load-policy-inputs";

/**
 * The engine's symlink resolver on the real file system: every hop of the longest existing prefix is resolved
 * (`realpath`), the rest of the path appended as written. `ws/t/x` with `t -> /tmp` gives `/tmp/x` even when `x`
 * does not exist; a dangling link gives its target. Null when nothing along the path is a link.
 */
export function resolveSymlink(abs: string): string | null {
  const rest: string[] = [];
  let cur = path.resolve(abs);
  for (;;) {
    try {
      const real = realpathSync.native(cur);
      const full = rest.length ? path.join(real, ...rest) : real;
      return full === path.resolve(abs) ? null : full;
    } catch {
      // A dangling link: its own target, then keep resolving from there.
      try {
        const target = path.resolve(path.dirname(cur), readlinkSync(cur));
        const full = rest.length ? path.join(target, ...rest) : target;
        return full === path.resolve(abs) ? null : full;
      } catch {
        /* not a link: go up one folder */
      }
      const parent = path.dirname(cur);
      if (parent === cur) return null;
      rest.unshift(path.basename(cur));
      cur = parent;
    }
  }
}

export interface ResolvedModes {
  modeBase: Mode;
  /** What the engine evaluates: a yolo the stores disable falls back to default. */
  modeEffective: Mode;
  /** Set when the stores' defaultMode could not be understood (it is then ignored). */
  ignoredDefault?: string;
}

/** The agent's mode: the one it reports, else the stores' `defaultMode`, else `default`. */
export function resolveModes(
  dialect: Dialect,
  requested: string | undefined | null,
  inputs: Pick<PolicyInputs, "defaultMode" | "disableBypass"> & Partial<Pick<PolicyInputs, "disableAutoMode">>,
): ResolvedModes {
  const fromRequest = requested ? normalizeMode(dialect, requested) : null;
  const fromStores = inputs.defaultMode ? normalizeMode(dialect, inputs.defaultMode) : null;
  const modeBase: Mode = fromRequest?.ok ? fromRequest.value : fromStores?.ok ? fromStores.value : "default";
  const modeEffective: Mode =
    (modeBase === "yolo" && inputs.disableBypass) || (modeBase === "auto" && inputs.disableAutoMode)
      ? "default"
      : modeBase;
  const ignoredDefault = fromStores && !fromStores.ok ? `${inputs.defaultMode}: ${fromStores.error}` : undefined;
  return { modeBase, modeEffective, ...(ignoredDefault ? { ignoredDefault } : {}) };
}

/**
 * Where an agent keeps plan files (written freely in plan mode) and skills (readable without asking), for one
 * workspace: each agent's engine says (lib/agents/<agent>/engine.ts).
 */
export interface AgentLocations {
  planDir?: string;
  skillDirs: string[];
}

/** The cockpit's data folder (credential, database, keys), as written and with symlinks resolved. */
export function cockpitProtectedPaths(): string[] {
  let dir: string;
  try {
    dir = env().dataDir;
  } catch {
    dir = path.resolve(process.env.COCKPIT_DATA || ".cockpit");
  }
  const out = [dir];
  try {
    const real = realpathSync(dir);
    if (real !== dir) out.push(real);
  } catch {
    // Not created yet: the lexical path is all there is to protect.
  }
  return out;
}

/** Everything the engine needs to decide one call in a workspace, from the loaded stores. */
export function policyContextFor({
  dialect,
  locations = { skillDirs: [] },
  mode,
  workspace,
  cwd,
  home,
  inputs,
  shell,
  protectedPaths = cockpitProtectedPaths(),
}: {
  dialect: Dialect;
  /** The agent's plan and skill folders in this workspace (none by default). */
  locations?: AgentLocations;
  mode: Mode;
  workspace: string;
  cwd?: string | null;
  home: string;
  inputs: PolicyInputs;
  /** The bash parser (`loadShellParser()`); without it shell commands are never allowed by a rule. */
  shell?: ShellParser | null;
  /** Defaults to the cockpit data folder. */
  protectedPaths?: string[];
}): PolicyContext {
  return {
    ...locations,
    dialect,
    mode,
    workspaceRoot: workspace,
    cwd: cwd ? path.resolve(workspace, cwd) : workspace,
    additionalDirectories: inputs.additionalDirectories,
    tmpDirs: [os.tmpdir()],
    home,
    rules: inputs.rules,
    sessionRules: inputs.sessionRules,
    grants: inputs.grants,
    disableBypass: inputs.disableBypass,
    disableAutoMode: inputs.disableAutoMode,
    managedRulesOnly: inputs.managedRulesOnly,
    held: inputs.held,
    caseInsensitiveFs: process.platform === "darwin" || process.platform === "win32",
    resolveSymlink,
    shell,
    protectedPaths,
    invalidStores: inputs.stores
      .filter((s) => !s.valid)
      .map((s) => ({ path: s.path, scope: s.scope, error: s.error ?? "invalid" })),
  };
}
