/** Command Code's dialect (seed 002): the settings family's, with `Shell(…)` rules and `prefix:*` wildcards. */
import type { Dialect } from "@/lib/policy";
import { settingsDialect } from "../shared/dialect";
import { info } from "./info";

const family = settingsDialect(info.id, info.label);

export const dialect: Dialect = {
  ...family,
  rules: { ...family.rules, shellTool: "Shell" },
  remember: {
    ...family.remember,
    // A pattern without `*` is a word-boundary prefix, so the exact rule also allows more arguments.
    exactShell: `this command (${info.label} also allows it with more arguments)`,
    wideShell: "colon-star",
  },
};
