/**
 * Claude Code's dialect, as its documentation describes it (code.claude.com: permissions, permission-modes,
 * tools-reference, settings); docs/policy.md, "Claude Code".
 */
import type { Dialect, RuleSource } from "@/lib/policy";
import { info } from "./info";

export const dialect: Dialect = {
  id: info.id,
  label: info.label,
  ladder: "documented",
  rules: {
    form: "text",
    // "Bash(npm run build)" matches that exact command; `*` is the wildcard.
    shell: "exact",
    shellTool: "Bash",
    // "Whitespace around the colon is ignored" in `Tool(param:value)`.
    paramSpaces: true,
    // "When Claude Code loads a settings file, it skips any `mcp__` rule that has parentheses".
    mcpTakesNoParens: true,
    // Write(path), NotebookEdit(path), Glob(path) and MultiEdit(path) parse but are never consulted.
    unconsulted: ["write", "notebookedit", "glob", "multiedit"],
  },
  matching: {
    strippedAllowView: true,
    foldDenyCase: false,
    // "A deny or ask rule whose path isn't usable as a gitignore pattern still guards that exact path."
    literalDenyPaths: true,
    domains: "documented",
    negatedPaths: true,
    // "A `Read` deny rule also blocks the Edit and Write tools"; "An `Edit(...)` allow rule also grants read access".
    readEditLinked: true,
  },
  paths: {
    slash: "base",
    // "Local settings rules anchor at the session's primary working directory, not at the repository root".
    cwdAnchored: (source: RuleSource) => source.scope === "session" || /settings\.local\.json$/.test(source.store),
    relativeAt: "cwd",
    relative: "gitignore",
  },
  // `auto`: the classifier mode (the cockpit has no classifier: its ask and deny rules decide, otherwise it asks).
  modes: { auto: "auto" },
  // Tools reference, "Permission Required: Yes" for tools the engine would otherwise treat as free.
  permissionRequired: ["webfetch", "websearch", "web_fetch", "web_search", "exitplanmode"],
  resourceAddresses: false,
  readOnlyPaths: [],
  remember: { exactShell: "this exact command", wideShell: "space-star", anchor: "cwd" },
};
