import path from "node:path";
import { ladderEngine } from "../shared/ladder-engine";
import type { LadderOptions } from "../shared/ladder-snapshot";
import { dialect } from "./dialect";

/** Decided by lib/policy's ladder in Command Code's dialect; plans and skills as seed 002 "Внешние каталоги" says. */
export const ladder: LadderOptions = {
  locations: (workspace, home) => ({
    planDir: path.join(home, `.${dialect.id}/plans`),
    skillDirs: [path.join(home, `.${dialect.id}/skills`), path.join(workspace, `.${dialect.id}/skills`)],
  }),
};

export const engine = ladderEngine(dialect, ladder);
