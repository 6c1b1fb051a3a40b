import { readlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { normalizeMode, type Agent, type Mode, type PolicyContext } from "@/lib/policy";
import type { PolicyInputs } from "./load-policy-inputs";

/** The engine's symlink resolver on the real file system: one hop, relative to the link's folder. */
export function resolveSymlink(abs: string): string | null {
  try {
    return path.resolve(path.dirname(abs), readlinkSync(abs));
  } catch {
    return null;
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
  agent: Agent,
  requested: string | undefined | null,
  inputs: Pick<PolicyInputs, "defaultMode" | "disableBypass">,
): ResolvedModes {
  const fromRequest = requested ? normalizeMode(agent, requested) : null;
  const fromStores = inputs.defaultMode ? normalizeMode(agent, inputs.defaultMode) : null;
  const modeBase: Mode = fromRequest?.ok ? fromRequest.value : fromStores?.ok ? fromStores.value : "default";
  const modeEffective: Mode = modeBase === "yolo" && inputs.disableBypass ? "default" : modeBase;
  const ignoredDefault = fromStores && !fromStores.ok ? `${inputs.defaultMode}: ${fromStores.error}` : undefined;
  return { modeBase, modeEffective, ...(ignoredDefault ? { ignoredDefault } : {}) };
}

/** Everything the engine needs to decide one call in a workspace, from the loaded stores. */
export function policyContextFor({
  agent,
  mode,
  workspace,
  cwd,
  home,
  inputs,
}: {
  agent: Agent;
  mode: Mode;
  workspace: string;
  cwd?: string | null;
  home: string;
  inputs: PolicyInputs;
}): PolicyContext {
  return {
    agent,
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
    caseInsensitiveFs: process.platform === "darwin" || process.platform === "win32",
    resolveSymlink,
  };
}
