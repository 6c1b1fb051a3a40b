/**
 * The settings-file family's dialect: seed 002's ladder, `Tool(specifier)` rules, shell patterns matched as a
 * word-boundary prefix, paths anchored at the workspace root. An agent whose rules read this way starts from it and
 * changes what differs (lib/agents/<agent>/dialect.ts). Pure data, like every dialect: lib/stores and lib/hygiene
 * read it too (.dependency-cruiser.cjs puts dialects in the engine layer).
 */
import type { Agent, Dialect } from "@/lib/policy";

export function settingsDialect(id: Agent, label: string): Dialect {
  return {
    id,
    label,
    ladder: "settings",
    rules: {
      form: "text",
      shell: "prefix",
      shellTool: "Bash",
      paramSpaces: false,
      mcpTakesNoParens: false,
      unconsulted: [],
    },
    matching: {
      strippedAllowView: false,
      foldDenyCase: false,
      literalDenyPaths: false,
      domains: "glob",
      negatedPaths: false,
      readEditLinked: false,
    },
    paths: { slash: "base", relativeAt: "workspace", relative: "gitignore" },
    modes: {},
    permissionRequired: [],
    resourceAddresses: false,
    readOnlyPaths: [],
    remember: { exactShell: "this exact command", wideShell: "space-star", anchor: "workspace" },
  };
}
