import { info as claudeCode } from "../claude-code/info";
import type { AgentInfo } from "../info";

/** Demo agent: speaks Claude Code's dialect (Bash, Edit, …) against Claude Code's stores, so demos exercise real rules. */
export const info = {
  id: "simulator",
  label: "Simulator",
  hasStores: false,
  hasConnector: false,
  demo: true,
  rulesOf: claudeCode.id,
} as const satisfies AgentInfo;
