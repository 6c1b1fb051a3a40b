/** Shared types of the policy engine. Pure data: no I/O, no framework imports. */
import type { StoreAgent } from "../agents";

/** What a rule or the engine answers for a tool call: the one list of rule actions. */
export const ACTIONS = ["allow", "ask", "deny"] as const;
export type Action = (typeof ACTIONS)[number];
/** The agent ids a rule or dialect names (the store agents of lib/agents, the one list); the engine compares none. */
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

/**
 * What the engine needs to know about one agent's rules and calls, handed in as an object. lib/policy knows no agent:
 * every difference between the agents it decides for is a field here, and each agent's dialect is defined in its own
 * folder (lib/agents/<agent>/dialect.ts; docs/decisions/0006-agent-interface-and-layers.md).
 */
export interface Dialect {
  /** The agent whose dialect this is: stamped on the rules it parses. */
  readonly id: Agent;
  /** Its name for people, in reasons and parse errors. */
  readonly label: string;
  /**
   * Which ladder decides its calls: `settings` (seed 002: rule lists, guards, then the mode), `documented` (the
   * ladder its documentation describes, lib/policy/decide-claude-code.ts) or `buckets` (session and
   * persistent rule buckets with resource authority, lib/policy/decide-mevedel.ts).
   */
  readonly ladder: "settings" | "documented" | "buckets";

  /** How rules are written and parsed. */
  readonly rules: {
    /** `text`: `Tool(specifier)`; `plist`: Lisp rule forms `("Tool" :key value :action allow)`. */
    readonly form: "text" | "plist";
    /** How a shell specifier without `*` matches (docs/policy.md, "Shell patterns"). */
    readonly shell: ShellDialect;
    /** The shell tool's name in written rules (`Shell`, `Bash`). */
    readonly shellTool: string;
    /** Whitespace around the colon of `Tool(param:value)` is ignored. */
    readonly paramSpaces: boolean;
    /** An `mcp__…` rule with parentheses is skipped when the settings file loads. */
    readonly mcpTakesNoParens: boolean;
    /** Path-rule tools the agent parses but never consults (lower case): shown, never deciding. */
    readonly unconsulted: readonly string[];
  };

  /** How rules match calls. */
  readonly matching: {
    /** Allow rules match each subcommand's view after documented wrappers and safe assignments are stripped. */
    readonly strippedAllowView: boolean;
    /** Deny and ask shell patterns fold case. */
    readonly foldDenyCase: boolean;
    /** A deny or ask path that is not a usable glob still guards that exact path. */
    readonly literalDenyPaths: boolean;
    /** `domain:` patterns: `documented` (exact host, `*.x` subdomains only) or `glob`. */
    readonly domains: "documented" | "glob";
    /** A deny or ask path starting with `!` carves paths out of the same store's earlier rules. */
    readonly negatedPaths: boolean;
    /** A Read deny or ask rule also guards edits of the path; an Edit allow also grants reads. */
    readonly readEditLinked: boolean;
  };

  /** Where the pieces of a path rule anchor (gitignore-style; lib/policy/paths.ts `ruleGlob`). */
  readonly paths: {
    /** `/x`: `absolute` as written, or `base` at the source's folder (else the workspace root). */
    readonly slash: "absolute" | "base";
    /** Sources whose `/x` anchors at the working directory instead (session rules, local settings). */
    readonly cwdAnchored?: (source: RuleSource) => boolean;
    /** `./x` and an allow rule's relative path anchor at the working directory or the workspace root. */
    readonly relativeAt: "cwd" | "workspace";
    /** A relative pattern: `gitignore` (a bare name at any depth) or `literal` (under the workspace root only). */
    readonly relative: "gitignore" | "literal";
  };

  /** Mode spellings of this agent beyond the common ones (lower case, separators removed). */
  readonly modes: Readonly<Record<string, Mode>>;
  /** Tools without file-system effect that still need permission (lower case; its tools reference). */
  readonly permissionRequired: readonly string[];
  /** Operands like `work://x` address resources by scheme, not file-system paths. */
  readonly resourceAddresses: boolean;
  /** Paths (fragments) the agent keeps read-only besides `.git`, e.g. its own state folders. */
  readonly readOnlyPaths: readonly string[];

  /** What "remember" writes for a call. */
  readonly remember: {
    /** The label of the exact-command choice. */
    readonly exactShell: string;
    /** A program or sub-command with any arguments: `prefix:*` or `prefix *`. */
    readonly wideShell: "colon-star" | "space-star";
    /** `/x` of a remembered edit anchors at the working directory or the workspace root. */
    readonly anchor: "cwd" | "workspace";
    /** Edits are remembered per absolute file under this tool (no folder level); default `Edit(/relative)`. */
    readonly editsAsAbsolute?: string;
  };
}

/** Everything `decide` needs besides the call. Stores hand it parsed rules. */
export interface PolicyContext {
  /** The agent's dialect: everything that differs between the agents the engine decides for (lib/policy/types.ts, `Dialect`). */
  dialect: Dialect;
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
