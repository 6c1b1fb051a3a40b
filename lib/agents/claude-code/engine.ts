import { ladderEngine } from "../shared/ladder-engine";
import { info } from "./info";

/** Decided by lib/policy's ladder in this agent's dialect. */
export const engine = ladderEngine(info.id);
