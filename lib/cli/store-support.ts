/** Helpers shared by the store CLI verbs (decide, entries, revoke, narrow, add): the CLI edge. */
import { storeEnv } from "@/lib/config/env";
import { InvalidInputError } from "@/lib/errors";
import { agentModule, storeAgentIds } from "@/lib/agents/registry";
import type { StorePaths } from "@/lib/stores/discover";
import { storePaths } from "@/lib/stores/store-paths";
import { SCOPES } from "@/lib/policy/types";
import type { Scope } from "@/lib/stores/types";
import type { WriteResult } from "@/lib/stores/write-common";

/** Workspace from the flag (default: the current folder); home and managed file from `storePaths`. */
export function storePathsFromFlags(workspace: string | undefined): StorePaths {
  return storePaths(storeEnv(), workspace ?? process.cwd());
}

/** `--agent` of the store verbs: an agent with stores (from the registry); unknown or missing is bad input. */
export function parseAgentFlag(value: string | undefined, required: boolean): string | undefined {
  if (value === undefined) {
    if (required) throw new InvalidInputError(`--agent is required (${storeAgentIds().join(", ")})`);
    return undefined;
  }
  try {
    return agentModule(value, "stores").info.id;
  } catch (error) {
    throw new InvalidInputError((error as Error).message);
  }
}

export function parseScopeFlag(value: string | undefined): Scope | undefined {
  if (value === undefined) return undefined;
  if (!(SCOPES as readonly string[]).includes(value))
    throw new InvalidInputError(`unknown scope "${value}" (use ${SCOPES.join(", ")})`);
  return value as Scope;
}

/** What a write changed, for people: file, line before/after, and the global warning. */
export function describeWrite(verb: string, result: WriteResult): string {
  const lines = [
    `${result.dryRun ? `would be ${verb} (dry run, nothing written)` : verb} in ${result.store} (${result.scope})`,
  ];
  if (result.before.text) lines.push(`  line ${result.before.line} before: ${result.before.text.trim()}`);
  if (result.after.text !== undefined && verb !== "revoked")
    lines.push(`  line ${result.after.line} after:  ${result.after.text.trim()}`);
  if (result.scopeWarning) lines.push(`  note: ${result.scopeWarning}`);
  return lines.join("\n") + "\n";
}
