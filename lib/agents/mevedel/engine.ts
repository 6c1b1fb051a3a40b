import { ladderEngine } from "../shared/ladder-engine";
import type { LadderOptions } from "../shared/ladder-snapshot";
import { dialect } from "./dialect";

/**
 * Decided by lib/policy's bucket chain in mevedel's dialect. No plan or skill folders: plans are session-owned
 * work:// resources, skills are skill:// addresses.
 */
export const ladder: LadderOptions = {};

export const engine = ladderEngine(dialect, ladder);
