/**
 * The shape of a catalogue entry (lib/agents/index.ts). Pure data with no imports: the catalogue is a foundation
 * every layer may read (docs/decisions/0006-agent-interface-and-layers.md).
 */
/** What the catalogue says about an agent: its id, its name for people, and which capabilities it has. */
export interface AgentInfo {
  /** The id the API, the CLI (`--agent`, `cockpit hook <id>`) and the database use. */
  readonly id: string;
  /** Its name for people. */
  readonly label: string;
  /** It has permission stores the cockpit lists and edits (the Rules page, `cockpit entries`). */
  readonly hasStores: boolean;
  /** It has a hook connector (`cockpit connect|disconnect|hook <id>`). */
  readonly hasConnector: boolean;
  /** A stand-in for demos (`cockpit simulate`): admits cards, has no files of its own. */
  readonly demo?: boolean;
  /** Decides with another agent's stores and session rules (the simulator: Claude Code's); default its own. */
  readonly rulesOf?: string;
  /** What its `--mode` means, for help text ("permission mode", "approval policy"). */
  readonly modeLabel?: string;
  /**
   * The files a person picks from when adding a rule (the first is the default), with the scopes each exists in;
   * none: one file per scope.
   */
  readonly addFiles?: readonly {
    readonly file: string;
    readonly note: string;
    readonly scopes: readonly ("workspace" | "global")[];
  }[];
  /**
   * Its settings files, which lib/stores finds, reads and edits in place (the settings-file stores), in the order they
   * are listed: workspace files first, then global, then managed.
   */
  readonly settingsFiles?: readonly SettingsFile[];
  /** Its store formats' names for people (the tag on the Rules page's store heading), by `StoreInfo.format`. */
  readonly formatLabels?: Readonly<Record<string, string>>;
  /** The files (or folders) in a workspace that show it uses this agent, relative to the workspace. */
  readonly workspaceFiles?: readonly string[];
  /** An example rule in the agent's own words, for the add-rule form and `cockpit add --help`. */
  readonly ruleExample?: string;
  /** What `cockpit narrow --to SPEC` takes for this agent's entries (help text, one or more lines). */
  readonly narrowHelp?: string;
  /**
   * Whether a person can approve this agent's calls from the cockpit (default true). False where the agent's hook may
   * deny but not approve (Gemini CLI ignores a hook's "allow"): its cards offer Deny only, with `approveNote`, and the
   * server refuses an allow answer, so no button pretends to approve.
   */
  readonly canAllowFromCockpit?: boolean;
  /** One line on such a card: where the person approves instead, and when the card closes. */
  readonly approveNote?: string;
  /** Warnings every card of this agent carries (lib/cards-client/warnings.ts names them for people). */
  readonly cardWarnings?: readonly string[];
  /** How the rule-hygiene lint (lib/hygiene) reads its rules, for agents whose settings files lib/stores reads. */
  readonly ruleTraits?: RuleTraits;
  /** It keeps its own log of permission decisions, which `cockpit audit import --agent <id>` adds to the audit log. */
  readonly auditLog?: {
    /** The log's file name, for help text (`permission-log.el`). */
    readonly file: string;
    /** The entry fields that name a tool: the import route refuses an entry whose value there is not a tool name. */
    readonly toolFields: readonly string[];
  };
}

/** One settings file of an agent (`AgentInfo.settingsFiles`). */
export interface SettingsFile {
  /**
   * Relative to the workspace (`workspace` scope) or the home folder (`global`); a managed file's absolute default
   * path (read-only; `COCKPIT_MANAGED_SETTINGS` overrides it).
   */
  readonly path: string;
  readonly scope: "workspace" | "global" | "managed";
  /** How lib/stores reads and edits it. */
  readonly format: "claude-json" | "commandcode-json" | "mevedel-plist";
  /** What a rule's `/x` is relative to: the workspace (default) or this file's folder. */
  readonly base?: "workspace" | "folder";
}

/**
 * The facts of an agent's documented rule semantics the hygiene lint needs (docs/policy.md): which rule wins, what
 * a rule's text is relative to, which rules are never consulted. Absent fields: the agent has no such rule.
 */
export interface RuleTraits {
  /**
   * How its rules combine. `deny-first`: every deny, then every ask, is checked before any allow, whatever file holds
   * them. `buckets`: each bucket (session; workspace and global together) is resolved on its own, a specifier rule
   * outranking a generic one, then deny > ask > allow; a deny in any bucket is absolute, and allow and ask are
   * resolved innermost bucket (session) first.
   */
  readonly precedence: "deny-first" | "buckets";
  /** A path rule's `/x` is relative to its settings file's folder: the same text means other paths in other files. */
  readonly slashFromStoreFolder?: boolean;
  /** Tools it allows before any rule is read (canonical names): rules on them are never consulted. */
  readonly alwaysAllowedTools?: readonly string[];
  /** Of those, tools whose deny and ask rules it does consult. */
  readonly denyAskConsulted?: readonly string[];
  /** The finding about a deny or ask on an always-allowed tool names the agent (its own docs say so). */
  readonly alwaysAllowedCited?: boolean;
  /** `:*` is its prefix wildcard, meaningful only at the end of a shell pattern. */
  readonly colonStarSuffix?: boolean;
  /**
   * The reusable allow the lint suggests for a one-off shell command, `{}` standing for the program and its
   * sub-command; absent: its `Shell` rule with a `{}:*` prefix pattern, in its own words.
   */
  readonly shellFamilyAllow?: string;
}
