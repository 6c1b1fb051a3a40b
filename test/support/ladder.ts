// The ladder agents' engine options for store-level tests (what lib/agents/<agent>/engine.ts hands the shared engine).
import { ladder as claudeCode } from "@/lib/agents/claude-code/engine";
import { ladder as commandCode } from "@/lib/agents/commandcode/engine";
import { dialectOf } from "@/lib/agents/dialects";
import { ladder as mevedel } from "@/lib/agents/mevedel/engine";
import type { LadderOptions } from "@/lib/agents/shared/ladder-snapshot";

type LadderAgent = "claude-code" | "commandcode" | "mevedel";
const LADDERS: Record<LadderAgent, LadderOptions> = {
  "claude-code": claudeCode,
  commandcode: commandCode,
  mevedel,
};

/** What `loadPolicyInputs` takes besides the paths: the agent, its dialect and its stores' semantics. */
export function inputsOf(agent: LadderAgent) {
  return { agent, dialect: dialectOf(agent), semantics: LADDERS[agent].semantics };
}

/** What `policyContextFor` takes from the agent: its dialect and its plan and skill folders in the workspace. */
export function contextOf(agent: LadderAgent, workspace: string, home: string) {
  return { dialect: dialectOf(agent), locations: LADDERS[agent].locations?.(workspace, home) };
}
