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
}
