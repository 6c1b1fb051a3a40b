/**
 * The Codex stores as read for one working directory (io/discover.ts fills them in): every file with its layer,
 * whether Codex reads it, its text and version, and the policy and modes Codex would run with. Pure data.
 */
import type { ConfigToml, ResolvedModes, TrustLevel } from "./config";
import type { LoadedPolicy } from "./policy";
import type { RulesFile } from "./rules-parse";
import type { CodexLayer, PrefixRule } from "./types";

export interface CodexPaths {
  home: string;
  /** $CODEX_HOME; default `<home>/.codex`. */
  codexHome?: string;
  /** The system folder; default `/etc/codex`. */
  etcRoot?: string;
  cwd: string;
}

export type CodexStoreKind = "rules" | "config" | "requirements" | "hooks";

export interface CodexStoreFile {
  path: string;
  kind: CodexStoreKind;
  layer: CodexLayer;
  exists: boolean;
  /** Codex reads it (false for an untrusted project's files). */
  active: boolean;
  /** Why Codex does not read it, or why the cockpit cannot edit it. */
  note?: string;
  /** Project folder this file belongs to (project layer). */
  dir?: string;
  readOnly: boolean;
  /** The text the cockpit read ("" when missing), and its version for compare-and-swap writes. */
  text: string;
  version: string;
  error?: { line: number; message: string };
  /** A `.rules` file as read (calls with their lines), whether or not Codex reads it. */
  rules?: RulesFile;
  /** requirements.toml: the admin's prefix rules (one per first-position alternative). */
  prefixRules?: PrefixRule[];
}

export interface CodexStores {
  paths: Required<CodexPaths>;
  projectRoot: string;
  repoRoot?: string;
  /** Trust of the active project (cwd, then repo root), for the mode defaults. */
  activeTrust?: TrustLevel;
  files: CodexStoreFile[];
  rules: RulesFile[];
  policy: LoadedPolicy;
  modes: ResolvedModes;
  userConfig?: ConfigToml;
  /** A failure that stops Codex from starting (unreadable folder, broken trusted project config, bad requirements). */
  fatal?: { file: string; line: number; message: string };
}
