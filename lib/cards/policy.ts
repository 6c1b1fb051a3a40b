import os from "node:os";
import path from "node:path";
import type { DbOrTx } from "@/db/client";
import { loadShellParser } from "@/lib/policy-runtime/shell-parser";
import {
  decide,
  explicitAllow,
  rememberRules,
  type Agent,
  type Decision,
  type Mode,
  type PolicyContext,
  type ToolCall,
} from "@/lib/policy";
import { listSessionEntries } from "@/lib/session-entries/session-entries";
import { loadPolicyInputs } from "@/lib/stores/load-policy-inputs";
import { policyContextFor, resolveModes } from "@/lib/stores/policy-context";
import { targetStore } from "@/lib/stores/discover";

/** Where the stores live; tests point `home` at a temp folder and switch off the managed file. */
export interface CardEnv {
  home?: string;
  managedSettingsPath?: string | null;
  now?: () => Date;
}

export const CARD_AGENTS = ["claude-code", "commandcode", "mevedel", "simulator"] as const;
export type CardAgent = (typeof CARD_AGENTS)[number];

/** The simulator speaks Claude Code's dialect (Bash, Edit, …) so demos exercise real rules. */
export function policyAgent(agent: string): Agent {
  return agent === "commandcode" || agent === "mevedel" ? agent : "claude-code";
}

export interface Evaluation {
  decision: Decision;
  modeBase: Mode;
  modeEffective: Mode;
  remember: { session: string[]; workspace: string[]; workspaceStore: string | null };
}

export interface EvaluateInput {
  agent: string;
  workspacePath: string;
  rootSessionId: string;
  mode?: string | null;
  cwd?: string | null;
  call: ToolCall;
}

/**
 * Every call the cockpit sees was already put to a person by the agent: only an explicit allow rule
 * (a store rule or a session entry) settles it without one. Heuristic allows (read-only, accept-edits,
 * yolo, plan, always-allowed, subagent) become asks; denies and asks stand.
 */
export function forAskedCall(call: ToolCall, ctx: PolicyContext, d: Decision): Decision {
  if (d.decision !== "allow") return d;
  const explicit = explicitAllow(call, ctx);
  if (explicit) return explicit;
  const why = "the agent asked a person: only an explicit allow rule settles it without one";
  return {
    ...d,
    decision: "ask",
    reason: `${d.reason}; ${why}`,
    trace: [...d.trace, { step: d.step, outcome: "decided", why }],
  };
}

/**
 * Current policy for one call: the agent's stores for the workspace and $HOME plus the session rules
 * of the root session (children share the root's authority), decided by the engine. A safety check
 * offers nothing to remember.
 */
export async function evaluateCall(
  db: DbOrTx,
  workspaceId: string,
  input: EvaluateInput,
  env: CardEnv = {},
): Promise<Evaluation> {
  const shell = await loadShellParser();
  const agent = policyAgent(input.agent);
  const home = path.resolve(/*turbopackIgnore: true*/ env.home ?? os.homedir());
  const paths = { workspace: input.workspacePath, home, managedSettingsPath: env.managedSettingsPath };
  const sessionRows = await listSessionEntries(db, { workspaceId, agentSessionId: input.rootSessionId });
  const inputs = await loadPolicyInputs({
    ...paths,
    agent,
    sessionId: input.rootSessionId,
    sessionSource: { list: async () => sessionRows, revoke: async () => undefined },
  });
  const { modeBase, modeEffective } = resolveModes(agent, input.mode, inputs);
  const ctx = policyContextFor({
    agent,
    mode: modeEffective,
    workspace: input.workspacePath,
    cwd: input.cwd,
    home,
    inputs,
    shell,
  });
  const decision = forAskedCall(input.call, ctx, decide(input.call, ctx));
  const rules =
    decision.decision === "ask" && !decision.safetyCheck
      ? rememberRules(input.call, ctx)
      : { session: [], workspace: [] };
  let workspaceStore: string | null = null;
  if (rules.workspace.length) {
    const store = targetStore(paths, agent, "workspace");
    workspaceStore = path.relative(input.workspacePath, store.path);
  }
  return { decision, modeBase, modeEffective, remember: { ...rules, workspaceStore } };
}
