/** The shapes Gemini CLI's policy engine works with, plus where the cockpit found each rule. Pure types. */

export type GeminiDecision = "allow" | "deny" | "ask_user";
/** Gemini's `ApprovalMode` values as they appear in TOML `modes` (`--approval-mode auto_edit` is `autoEdit`). */
export type GeminiMode = "default" | "autoEdit" | "yolo" | "plan";
export const GEMINI_MODES: readonly GeminiMode[] = ["default", "autoEdit", "yolo", "plan"];
/** `MODES_BY_PERMISSIVENESS`: "always allow" in one mode also applies to every mode after it. */
export const MODES_BY_PERMISSIVENESS: readonly GeminiMode[] = ["plan", "default", "autoEdit", "yolo"];

/** The command-line spelling (`--approval-mode default|auto_edit|yolo|plan`) to the engine's. */
export function modeFromFlag(flag: string): GeminiMode | null {
  switch (flag) {
    case "default":
      return "default";
    case "auto_edit":
    case "autoEdit":
      return "autoEdit";
    case "yolo":
      return "yolo";
    case "plan":
      return "plan";
    default:
      return null;
  }
}

/** Policy tiers: priority = tier + priority/1000. */
export const TIER = { default: 1, extension: 2, workspace: 3, user: 4, admin: 5 } as const;
export type TierName = keyof typeof TIER;

export const SETTINGS_PRIORITY = {
  mcpExcluded: 4.9,
  toolsExclude: 4.4,
  confirmationRequired: 4.35,
  toolsAllowed: 4.3,
  toolsAllowedNarrowing: 4.29,
  toolsCore: 4.25,
  toolsCoreEnforcement: 4.24,
  mcpTrusted: 4.2,
  mcpAllowed: 4.1,
} as const;

/** The fraction Gemini gives "always allow" rules (…950); `security.disableAlwaysAllow` ignores them all. */
export const ALWAYS_ALLOW_PRIORITY_FRACTION = 950;

/** Where a rule came from, for the Rules page, `decide --explain` and in-place edits. */
export interface RuleOrigin {
  kind: "toml" | "builtin" | "settings" | "session";
  /** Absolute file path (built-in rules: the file name inside Gemini's package). */
  file?: string;
  /** 1-based line of the `[[rule]]` header (TOML) or of the settings value. */
  line?: number;
  /** Index of the `[[rule]]` table in its file (0-based), for edits. */
  ruleIndex?: number;
  /** Settings key that produced the rule, e.g. `tools.allowed[2]`. */
  setting?: string;
  tier: TierName;
}

export interface GeminiRule {
  toolName: string;
  mcpName?: string;
  subagent?: string;
  argsPattern?: RegExp;
  decision: GeminiDecision;
  priority: number;
  modes?: GeminiMode[];
  interactive?: boolean;
  toolAnnotations?: Record<string, unknown>;
  allowRedirection?: boolean;
  denyMessage?: string;
  /** Gemini's own `source` label, e.g. `User: auto-saved.toml`, `Settings (Tools Allowed)`. */
  source: string;
  origin?: RuleOrigin;
}

export interface GeminiChecker {
  toolName: string;
  mcpName?: string;
  argsPattern?: RegExp;
  priority: number;
  modes?: GeminiMode[];
  toolAnnotations?: Record<string, unknown>;
  checker: { type: "in-process" | "external"; name: string; config?: Record<string, unknown> };
  source: string;
  origin?: RuleOrigin;
}

/** One problem in a policy file, Gemini's error types (policy/toml-loader.ts `PolicyFileError`). */
export interface PolicyFileError {
  file: string;
  tier: TierName;
  errorType:
    "file_read" | "toml_parse" | "schema_validation" | "rule_validation" | "regex_compilation" | "tool_name_warning";
  severity: "error" | "warning";
  message: string;
  details?: string;
  ruleIndex?: number;
  line?: number;
}

/** A tool call as the cockpit receives it: `{"tool":"<gemini tool>","input":{…},"server"?}`. */
export interface GeminiCall {
  tool: string;
  input?: Record<string, unknown>;
  /** The MCP server, when the call's name alone is ambiguous (`_serverName` metadata in Gemini). */
  server?: string;
  /** Tool annotations (e.g. `readOnlyHint` of an MCP tool). */
  annotations?: Record<string, unknown>;
  /** The subagent making the call, when it is one. */
  subagent?: string;
}
