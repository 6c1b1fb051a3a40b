import path from "node:path";
import type { DbOrTx } from "@/db/client";
import type { AgentSnapshot } from "@/lib/agents/types";
import { storeEnv } from "@/lib/config/env";
import { evaluateWith, loadSnapshot, type EvaluateRequest, type Evaluation } from "@/lib/policy-runtime/pipeline";
import { sessionEntriesVersioned } from "@/lib/session-entries/session-entries";
import type { StorePaths } from "@/lib/stores/discover";
import { storePaths } from "@/lib/stores/store-paths";

/**
 * Overrides of where the stores live (tests point `home` at a temp folder and switch off the managed
 * file); unset fields come from `storePaths` (the environment), as for the CLI and the Rules page.
 */
export interface CardEnv {
  home?: string;
  managedSettingsPath?: string | null;
  now?: () => Date;
}

export { CARD_AGENTS, type CardAgent } from "@/lib/agents";
export type { Evaluation } from "@/lib/policy-runtime/pipeline";

export interface EvaluateInput extends EvaluateRequest {
  agent: string;
  workspacePath: string;
  rootSessionId: string;
}

/** The store paths of a card's workspace: `storePaths` from the environment, with a test's overrides. */
export function cardStorePaths(workspacePath: string, env: CardEnv = {}): StorePaths {
  const paths = storePaths(storeEnv(), workspacePath);
  return {
    ...paths,
    ...(env.home !== undefined ? { home: path.resolve(/*turbopackIgnore: true*/ env.home) } : {}),
    ...(env.managedSettingsPath !== undefined ? { managedSettingsPath: env.managedSettingsPath } : {}),
  };
}

/**
 * One snapshot for one root session's calls: the agent's stores for the workspace and $HOME (parsed
 * once per file version) plus the session rules of the root session (children share the root's
 * authority). Evaluate any number of calls against it with `evaluateWith`.
 */
export async function cardSnapshot(
  db: DbOrTx,
  workspaceId: string,
  input: { agent: string; workspacePath: string; rootSessionId: string; cwd?: string | null },
  env: CardEnv = {},
): Promise<AgentSnapshot> {
  const sessionRows = await sessionEntriesVersioned(db, { workspaceId, agentSessionId: input.rootSessionId });
  return loadSnapshot(input.agent, {
    paths: cardStorePaths(input.workspacePath, env),
    cwd: input.cwd,
    sessionRows,
    sessionId: input.rootSessionId,
  });
}

/** Current policy for one call: a snapshot (see `cardSnapshot`) and one evaluation. */
export async function evaluateCall(
  db: DbOrTx,
  workspaceId: string,
  input: EvaluateInput,
  env: CardEnv = {},
): Promise<Evaluation> {
  return evaluateWith(await cardSnapshot(db, workspaceId, input, env), input);
}
