/**
 * The engine's context for one call of a ladder agent, from its loaded inputs (lib/agents/shared/ladder-inputs.ts):
 * its dialect, its plan and skill folders (its engine says where), the mode, the stores' rules and settings, the
 * bash parser and the protected paths. No I/O besides what the caller hands in.
 */
import os from "node:os";
import path from "node:path";
import { normalizeMode, type Dialect, type Mode, type PolicyContext, type ShellParser } from "@/lib/policy";
import { cockpitProtectedPaths, resolveSymlink } from "@/lib/stores/policy-context";
import type { PolicyInputs } from "./ladder-inputs";

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
