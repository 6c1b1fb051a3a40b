/**
 * mevedel's dialect (seed 004, its permission tests): plist rule forms in session and persistent buckets, glob
 * shell patterns, resource addresses (`work://…`) and its own read-only state folders.
 */
import type { Dialect } from "@/lib/policy";
import { info } from "./info";

export const dialect: Dialect = {
  id: info.id,
  label: info.label,
  ladder: "buckets",
  rules: {
    form: "plist",
    shell: "glob",
    shellTool: "Bash",
    paramSpaces: false,
    mcpTakesNoParens: false,
    unconsulted: [],
  },
  matching: {
    strippedAllowView: false,
    // Emacs's default case folding; only deny and ask fold (allow keeps the narrower reading).
    foldDenyCase: true,
    literalDenyPaths: false,
    domains: "glob",
    negatedPaths: false,
    readEditLinked: false,
  },
  // Paths are literal: `/x` absolute, a relative path under the workspace root.
  paths: { slash: "absolute", relativeAt: "workspace", relative: "literal" },
  modes: { ask: "default", edits: "accept-edits", fullauto: "yolo", plan: "plan" },
  permissionRequired: [],
  resourceAddresses: true,
  readOnlyPaths: [`/.${info.id}/artifacts/.state`, `/.${info.id}/leases`],
  remember: {
    exactShell: "this exact command",
    wideShell: "space-star",
    anchor: "workspace",
    editsAsAbsolute: "ApplyPatch",
  },
};
