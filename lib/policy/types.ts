/** Shared types of the policy engine. Pure data: no I/O, no framework imports. */
import type { StoreAgent } from "../agents";

/** What a rule or the engine answers for a tool call: the one list of rule actions. */
export const ACTIONS = ["allow", "ask", "deny"] as const;
export type Action = (typeof ACTIONS)[number];
/** Agents whose rule dialects the engine understands (the store agents of lib/agents, the one list). */
export type Agent = StoreAgent;
/**
 * Where an entry lives, in the order the Rules page groups them (the order of precedence a person reasons in): the
 * one list of scopes. `managed` is an organisation-wide store that projects cannot edit.
 */
export const SCOPES = ["session", "workspace", "global", "managed"] as const;
export type Scope = (typeof SCOPES)[number];
/**
 * Canonical modes. mevedel's `ask`/`edits`/`full-auto` map to default/accept-edits/yolo. `auto` is Claude Code's
 * classifier mode (the cockpit has no classifier: its ask and deny rules decide, otherwise it asks).
 */
export type Mode = "default" | "accept-edits" | "plan" | "yolo" | "dont-ask" | "auto";

/** The store a rule came from. */
export interface RuleSource {
  scope: Scope;
  /** File path, or "session:<id>". */
  store: string;
  /** Folder a leading "/" in a path rule anchors to (Claude Code: settings source; Command Code: workspace root). */
  base?: string;
}

/** A mevedel resource grant or `:file-system` profile entry. Paths are literal (no globs). */
export interface Grant {
  path: string;
  access: "read" | "write";
  recursive: boolean;
}

/** How a shell specifier without `*` matches: Command Code = word-boundary prefix, Claude Code = exact, mevedel = plain glob. */
export type ShellDialect = "prefix" | "exact" | "glob";

/** The parsed part in parentheses of a rule. */
export type Specifier =
  | { kind: "shell"; pattern: string; dialect: ShellDialect }
  | { kind: "path"; pattern: string }
  | { kind: "domain"; pattern: string }
  | { kind: "param"; name: string; value: string }
  | { kind: "name"; pattern: string }
  | { kind: "expression"; value: string };

/** One parsed, canonical rule. */
export interface Rule {
  action: Action;
  /** Canonical tool (`Shell`, `Read`, `Edit`, `Write`, `WebFetch`, …), an exact model tool name (`edit_file`), or a tool glob (`mcp__github__*`). */
  tool: string;
  specifier: Specifier | null;
  /** The authored text, e.g. "Shell(git status:*)" or the plist source. */
  text: string;
  source: RuleSource;
  agent: Agent;
  /** mevedel execution profile on a Bash/Eval allow rule. */
  profile?: { network: boolean; fileSystem: Grant[] };
  /**
   * mevedel `:sandbox-permissions LEVEL` (e.g. `require-escalated`): the rule is consulted only when the Bash or
   * Eval call requested that execution level, never by ordinary resolution.
   */
  sandboxPermissions?: string;
}

/** Result of parsing user-authored text: never throws. */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** A mevedel rule as read from a plist, already split into keys. */
export interface MevedelRuleData {
  tool: string;
  path?: string;
  pattern?: string;
  expression?: string;
  domain?: string;
  name?: string;
  action: Action;
  network?: boolean;
  fileSystem?: Grant[];
  sandboxPermissions?: string;
}

/** One request of an agent: tool name + input, as the agent sends it. */
export interface ToolCall {
  tool: string;
  input: Record<string, unknown>;
}

/** Everything `decide` needs besides the call. Stores hand it parsed rules. */
export interface PolicyContext {
  agent: Agent;
  mode: Mode | string;
  workspaceRoot: string;
  cwd?: string;
  additionalDirectories?: string[];
  tmpDirs?: string[];
  home: string;
  rules: Rule[];
  sessionRules?: Rule[];
  grants?: (Grant & { source: RuleSource })[];
  disableBypass?: boolean;
  /** Claude Code `permissions.disableAutoMode: "disable"` in any settings file: `auto` is evaluated as default. */
  disableAutoMode?: boolean;
  /** Claude Code `allowManagedPermissionRulesOnly`: nothing is remembered (the agent "stops saving new rules"). */
  managedRulesOnly?: boolean;
  /** Allow rules (and additional directories) the stores hold back, and why (untrusted workspace, managed-only). */
  held?: { rules: number; directories: number; why: string } | null;
  caseInsensitiveFs?: boolean;
  /** Returns the symlink target of an absolute path, or null when it is not a link. */
  resolveSymlink?: (absPath: string) => string | null;
  /** Where the agent writes plan files (Command Code `~/.commandcode/plans`, Claude Code `~/.claude/plans`). */
  planDir?: string;
  /** Registered skill directories: readable without asking. */
  skillDirs?: string[];
  /** The call comes from a Command Code subagent: ordinary asks become allow, safety asks fail closed (deny). */
  subagent?: boolean;
  /** The bash parser (see `createShellParser`). Without it every shell command is unparsable and never allowed by a rule. */
  shell?: ShellParser | null;
  /**
   * Folders no agent may read, write or name without a person: the cockpit's own data folder. A call touching
   * one is a safety-check ask with `protected: true` (deny in dont-ask), whatever the mode or rules allow.
   */
  protectedPaths?: string[];
  /** Stores of this context that could not be read: decisions fail closed (never allow) while any is listed. */
  invalidStores?: { path: string; scope: Scope; error: string }[];
}

/** Ladder step names, fixed by DESIGN.md. */
export type StepName =
  | "deny-rule"
  | "ask-rule"
  | "external-dir"
  | "plan-mode"
  | "malformed-write"
  | "read-only"
  | "root-home-delete"
  | "yolo"
  | "sensitive-write"
  | "allow-rule"
  | "accept-edits"
  | "fallback"
  | "always-allowed"
  | "protected-path"
  | "invalid-store";

/** One line of a decision's trace. */
export interface TraceEntry {
  step: StepName;
  outcome: "passed" | "decided" | "skipped";
  why: string;
}

/** Why a prompt appears (for cards). */
export type Cause =
  "rule" | "mode" | "resource-boundary" | "protected-resource" | "explicit-ask-rule" | "safety" | "always-allowed";

/** The engine's answer with its explanation. */
export interface Decision {
  decision: Action;
  step: StepName;
  /** Authored text of the deciding rule. */
  rule: string | null;
  scope: Scope | null;
  store: string | null;
  reason: string;
  trace: TraceEntry[];
  cause: Cause;
  /** e.g. "dangerous command", "protected path", "unsupported shell syntax", "root/home delete", "secret material". */
  warnings: string[];
  /** True when a prompt may only offer allow-once / deny (approvals of safety checks are never remembered). */
  safetyCheck: boolean;
  /**
   * True when the call touches a protected path (`ctx.protectedPaths`). The card may only be settled by a person,
   * once: never by a rule, grant, mode heuristic or remembered approval. Implies `safetyCheck`.
   */
  protected?: boolean;
}

/** Outcome of a narrowing proof. */
export type NarrowProof = { proved: true } | { proved: false; reason: string };

/** An entry as listed by the cockpit, for narrowing proofs. */
export interface EntrySpec {
  kind: "rule" | "grant" | "profile";
  action?: Action;
  rule?: Rule;
  grant?: Grant;
  profile?: { network: boolean; fileSystem: Grant[] };
}

/** One simple command of a shell command line. */
export interface ShellPart {
  /** Source text of the statement, redirections included, whitespace collapsed. */
  text: string;
  /** Words with quotes removed; expansions keep their source spelling (`$HOME`). */
  argv: string[];
  /** Source text of each argv word as written (quotes kept), when the parser produced the part. */
  src?: string[];
  /** argv after stripping `VAR=value` prefixes and wrappers (timeout, env, sudo, …). */
  core: string[];
  /** Leading `VAR=value` assignments. */
  assignments: string[];
  /** Wrapper commands stripped from the front. */
  wrappers: string[];
  /** Output redirection targets (files written). */
  writes: string[];
  /** Input redirection targets (`< file`), when any. */
  reads?: string[];
  /** `top`: a command of the line itself; `substitution`: inside `$(…)`, backticks or `<(…)` (runs too, so allow must cover it);
   * `payload`: inside a `bash -c`/`eval`/`find -exec` argument (seen by deny/ask only; allow matches the outer command). */
  origin: "top" | "substitution" | "payload";
  /** Contains expansions, globs or constructs whose value is not known statically. */
  dynamic: boolean;
}

/** What the shell analysis found in a command string. */
export interface ShellAnalysis {
  command: string;
  /** The parser understood the whole command (no syntax errors). */
  parseable: boolean;
  /** Allow rules may only match when true: parseable and built only from simple commands, lists, pipelines, redirects and substitutions. */
  allowable: boolean;
  /** Top-level simple commands (what allow rules must each match), then nested ones. */
  parts: ShellPart[];
  /** Every part only reads and nothing redirects output to a file. */
  readOnly: boolean;
  /** Arguments of read-only commands that look like secret material. */
  secretArgs: string[];
  recursiveDelete: boolean;
  rootHomeDelete: boolean;
  /** Paths given to `rm`/`find -delete`, for home-directory checks against the context. */
  deleteTargets: string[];
  dangerous: boolean;
  /** Every part is a safe file command (mkdir, touch, cp, mv, non-recursive rm, rmdir, sed) or read-only. */
  safeFileCommand: boolean;
  /** Paths the safe file commands write, for workspace/sensitivity checks. */
  fileTargets: string[];
  /** Every output-redirection target (`> f`, `>> f`, `&> f`), wherever it is attached. */
  writes: string[];
  /** Every input-redirection target (`< f`), wherever it is attached. */
  reads?: string[];
  /** A command of the line runs in the background (`&`). */
  background?: boolean;
  /** Constructs that made the command not allowable, e.g. "if_statement", "syntax error". */
  unsupported: string[];
}

/** A loaded bash parser with its own analysis cache. Created by the caller and passed in `PolicyContext.shell`. */
export interface ShellParser {
  analyze(command: string): ShellAnalysis;
  /** Drop cached analyses (benchmarks measure cold parses with it). */
  clearCache(): void;
}
