import type { AgentModule } from "../types";
import { info } from "./info";

/** Decides as Claude Code does, against Claude Code's stores and session rules. */
export const agent: AgentModule = {
  info,
  engine: () => import("../claude-code/engine").then((m) => m.engine),
};
