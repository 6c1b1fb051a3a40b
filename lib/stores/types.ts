import type { Rule } from "@/lib/policy";
import type { Action, Agent, Grant, MevedelRuleData, Scope } from "./policy-adapter";

export type { Action, Agent, Grant, MevedelRuleData, Scope };
export type StoreFormat =
  | "claude-json"
  | "commandcode-json"
  | "mevedel-plist"
  | "database"
  /** A Starlark rules file (`prefix_rule(...)` calls). */
  | "starlark-rules"
  /** A TOML settings file (modes, trust, admin requirements). */
  | "toml"
  /** Gemini CLI policy files (`[[rule]]` tables). */
  | "gemini-toml"
  /** Gemini CLI settings.json / trustedFolders.json (rules derived from settings, folder trust). */
  | "gemini-json"
  /** Cursor CLI cli-config.json / .cursor/cli.json (`permissions.allow|deny`). */
  | "cursor-json";
export type EntryKind = "rule" | "grant" | "profile";

/** One backing store as listed: empty and invalid stores are listed too. */
export interface StoreInfo {
  path: string;
  format: StoreFormat;
  agent: Agent;
  scope: Scope;
  /** sha256 hex of the file's bytes, or "missing" for an absent file. */
  version: string;
  valid: boolean;
  error?: string;
  writable: boolean;
  /** Why a valid store is not writable (managed, symlink in path). */
  readOnlyReason?: string;
  /** Folder a Claude Code `/x` rule is relative to; the workspace for the others. */
  base: string;
  entryCount: number;
  /** The agent does not read this store now, and why (a project the agent does not trust). */
  inactive?: string;
  /**
   * What a person must know before editing this file, in the agent's words (Gemini rewrites `auto-saved.toml` and
   * drops its comments): shown next to the store on the Rules page and in `cockpit entries`.
   */
  help?: string;
}

export interface Profile {
  network: boolean;
  fileSystem: Grant[];
}

export interface GrantView extends Grant {
  label: "exact" | "recursive";
}

export interface Entry {
  id: string;
  scope: Scope;
  kind: EntryKind;
  agent: Agent;
  action: Action;
  /** The authored text: the rule string (JSON) or the canonical plist datum (mevedel). */
  rule: string;
  tool: string | null;
  specifier: string | null;
  grant?: GrantView;
  profile?: { network: boolean; fileSystem: GrantView[] };
  /** Set when the engine cannot parse the rule; the entry is still listed and revocable. */
  malformed?: string;
  store: { path: string; format: StoreFormat; version: string; valid: boolean; error?: string };
  /** 1-based line of the entry in its file (0 for database rows). */
  line: number;
  writable: boolean;
  /** Session entries only. */
  agentSessionId?: string;
  createdAt?: string;
}

/** Where an entry sits in the file's text (UTF-16 offsets), for splicing edits. */
export interface EntryLocation {
  start: number;
  end: number;
  /** JSON: the `permissions.<action>` array index. */
  index?: number;
  /** mevedel: which plist list holds it. */
  list?: "rules" | "resource-grants";
}

export interface LocatedEntry {
  entry: Entry;
  location: EntryLocation;
}

/** One listed entry with what the engine understood of it (null rule: malformed, or a grant); the lint's input. */
export interface ParsedEntry {
  entry: Entry;
  rule: Rule | null;
  /** mevedel resource grants, path expanded against home. */
  grant?: Grant;
}
