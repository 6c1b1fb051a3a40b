/**
 * The agent interface (docs/decisions/0006-agent-interface-and-layers.md). Everything that differs between agents
 * sits behind these types, implemented once per agent in lib/agents/<agent>/; the rest of the cockpit asks the
 * registry (lib/agents/registry.ts) and never names an agent.
 *
 * An agent is a catalogue entry (`AgentInfo`, pure data, safe anywhere) plus capabilities loaded on demand, so the
 * hook path does not load the engine and the Rules page does not load a connector.
 */
import type { $ZodType } from "zod/v4/core";
import type { Decision, ParseResult, Scope, ToolCall } from "@/lib/policy";
import type { Finding } from "@/lib/hygiene/types";
import type { Entry, StoreInfo, StorePaths, WriteResult } from "@/lib/stores";
import type { RememberOption } from "@/db/schema/cards";
import type { AgentInfo } from "./info";

export type { AgentInfo } from "./info";

/** One agent: its catalogue entry and its capabilities, each loaded when first asked for. */
export interface AgentModule {
  readonly info: AgentInfo;
  /** How the cockpit decides this agent's calls (its dialect of the engine). */
  readonly engine: () => Promise<AgentEngine>;
  /** Its permission stores; absent when `info.hasStores` is false. */
  readonly stores?: () => Promise<AgentStores>;
  /** Its hook connector; absent when `info.hasConnector` is false. */
  readonly connector?: () => Promise<AgentConnector>;
  /** Its part in `cockpit demo`; absent: the demo leaves it out. */
  readonly demo?: () => Promise<AgentDemo>;
  /** Reading its own log of permission decisions (`cockpit audit import`); absent when `info.auditLog` is. */
  readonly auditLog?: () => Promise<AgentAuditLog>;
}

// ——— its own permission log ———

/** One entry of an agent's own permission log, as the CLI reads it and posts it to the import route. */
export interface AuditLogEntry {
  /** 1-based line of the entry's first character. */
  line: number;
  /** Dedupe key: a hash of the entry's canonical text and its occurrence number among identical entries. */
  key: string;
  /** The entry's fields as JSON values. */
  fields: Record<string, unknown>;
}

/** Splits a log into entries, fed line by line (streaming); a broken entry is reported by line, never guessed. */
export interface AuditLogReader {
  /** Feeds one line (without its newline); returns the entry it completes, if any. */
  push(line: string): AuditLogEntry | null;
  /** Call at the end of input: an entry still open is malformed. */
  end(): void;
  readonly malformed: { line: number; reason: string }[];
}

/** The audit event types an imported entry may become (lib/audit's vocabulary, checked where it records them). */
export type ImportedEventType =
  | "agent.decision"
  | "card.enqueued"
  | "card.displayed"
  | "card.resolved"
  | "card.coalesced"
  | "card.swept"
  | "card.expired"
  | "card.aborted";

/** Who decided, in Claude Code's `tool_decision` vocabulary (lib/audit's `DecisionSource`). */
export type ImportedDecisionSource = "config" | "hook" | "user_temporary" | "user_permanent" | "user_reject";

/**
 * One log entry as the audit event it records. lib/audit adds who imported it (the agent, channel `import`), the
 * workspace and the import key; the log's own fields stay under `detail.imported`, where none of them can pose as
 * the cockpit's trace, passkey or device.
 */
export interface ImportedEvent {
  type: ImportedEventType;
  target: string | null;
  outcome: string | null;
  decisionSource: ImportedDecisionSource | null;
  rule: string | null;
  store: string | null;
  agentSessionId: string | null;
  toolUseId: string | null;
  cwd: string | null;
  tool: string | null;
  input: Record<string, unknown> | null;
  /** `imported` (the entry's fields), `event`, `occurredAt` (an ISO instant the agent's reader checked), … */
  detail: Record<string, unknown>;
}

/** An agent's own log of the permission decisions it made (mevedel's `permission-log.el`). */
export interface AgentAuditLog {
  /** A reader for one file; `salt` separates the keys of logs that must never dedupe against each other. */
  reader(salt?: string): AuditLogReader;
  /** One entry as an audit event; `session` is the agent session the whole log belongs to (entries may name theirs). */
  toEvent(entry: AuditLogEntry, session?: string): ImportedEvent;
}

// ——— demo ———

/** An agent's part in `cockpit demo`: its files in the sample workspace and a scripted agent that asks as it does. */
export interface AgentDemo {
  /** Files to create in the demo workspace (relative paths): its stores with a few rules of each kind. */
  readonly files: Readonly<Record<string, string>>;
  /** A `cockpit simulate` script for the demo workspace's folder (checked by the simulator); absent: files only. */
  script?(folder: string): unknown;
}

// ——— stores ———

/** Input of every store verb: the workspace, `$HOME` and the managed file (`storePaths`), and the agent's cwd. */
export interface StoreScope extends StorePaths {
  /** The agent's current folder (absolute), for agents whose project stores depend on it; default the workspace. */
  cwd?: string;
}

export interface StoreListing {
  entries: Entry[];
  /** Every store, empty and invalid ones included (invalid: `valid: false` and `error`). */
  stores: StoreInfo[];
  /** A state of the whole policy a person must see first (Codex ignoring every rule because one file broke). */
  banner?: string;
}

/** Names one listed entry, with the store version it was listed from (writes refuse when the file moved on). */
export interface EntryTarget extends StoreScope {
  id: string;
  expectedVersion?: string;
  /** Check and compute everything, write nothing (confirmations, impact previews). */
  dryRun?: boolean;
}

export interface AddInput extends StoreScope {
  scope: "workspace" | "global";
  action: "allow" | "ask" | "deny";
  /** The rule as the agent writes it (`Bash(git status:*)`, a plist form, `prefix_rule(...)` tokens…). */
  rule: string;
  /** Which file of that scope, when the agent has several (`settings.json` or `settings.local.json`). */
  file?: string;
  expectedVersion?: string;
  dryRun?: boolean;
}

/** Every write answers with the file's version before and after, for the audit row. */
export interface StoreWrite extends WriteResult {
  /** The entry as it was listed before the write (revoke, narrow); absent for an add. */
  entry?: Entry;
}
export interface AddWrite extends StoreWrite {
  /** The new entry's id (stable while the file is unchanged). */
  id: string;
  /** The same entry was already there: nothing written. */
  unchanged: boolean;
}

/** Where an agent's permissions live and how they are edited in place (comments and layout kept). */
export interface AgentStores {
  /** Read every store now and list its entries. */
  list(scope: StoreScope): Promise<StoreListing>;
  revoke(target: EntryTarget): Promise<StoreWrite>;
  /** Replace an entry by one the proof shows to be narrower; refuses with the reason otherwise. */
  narrow(target: EntryTarget & { to: string }): Promise<StoreWrite & { from: string; to: string }>;
  add(input: AddInput): Promise<AddWrite>;
  /** The workspace files this agent reads (for "which agents does this folder use"); none: it reads none there. */
  workspaceFiles(scope: StoreScope): string[];
  /**
   * Hygiene findings for agents whose rules lib/hygiene does not read (their own semantics), over the entries `list`
   * gives; `entries` is how many entries were linted.
   */
  lint?(scope: StoreScope): Promise<{ findings: Finding[]; entries: number }>;
}

// ——— engine ———

/** What `decide` needs besides the snapshot: the call as the agent sends it, its mode and its folder. */
export interface DecideRequest {
  call: ToolCall;
  /** The mode the agent reports (else its stores' default, else its default). */
  mode?: string | null;
  /** The agent's working folder, absolute or relative to the workspace. */
  cwd?: string | null;
  /** Agent-specific options from `cockpit decide` flags (`engine.flags`), e.g. Codex's sandbox mode. */
  options?: Readonly<Record<string, string | boolean>>;
  /**
   * Rules the agent itself suggested remembering, one list per suggestion (Claude Code's `permission_suggestions`):
   * `remember` offers them only within the bounds of its own choices and after the same lint.
   */
  suggestions?: readonly (readonly string[])[];
}

/** A decision with the mode it was taken in. `decision` has the `cockpit decide` contract's fields. */
export interface AgentDecision {
  decision: Decision;
  modeBase: string;
  modeEffective: string;
  /** The stores' default mode could not be understood and was ignored (said on stderr by the CLI). */
  ignoredDefault?: string;
  /** Agent-specific facts `--explain` prints (matched prefix, inferred readings…). */
  explain?: Record<string, unknown>;
}

/** What each remembering choice of a card would store, in the agent's own words. */
export interface RememberOffer {
  /** Session rules (the cockpit's database) "allow for this session" adds. */
  session: string[];
  /** Rules "always allow" writes, in the agent's own store (the same file and shape the agent writes). */
  workspace: string[];
  /** That store, as a person reads it (`.claude/settings.local.json`, `~/.codex/rules/default.rules`). */
  workspaceStore: string | null;
  /**
   * The scope of that store when it is not the workspace's: an agent whose own "don't ask again" writes a file in the
   * user's home (`global`) says so, and "always allow" then needs the right to change global rules.
   */
  workspaceScope?: "workspace" | "global";
  /** Parallel to `workspace`: an allow already stored that covers the proposed rule. */
  coveredBy?: ({ rule: string; store: string; scope: Scope } | null)[];
  /** Proposed rules that allow every use of their tool (a person must confirm them). */
  wide?: string[];
  /**
   * The remember chooser, narrowest first (this exact command, the sub-command, the program…), each with the lint's
   * verdict; a choice the lint calls an error is never offered. The first is the default and equals `session` and
   * `workspace` above. Absent: the agent offers one fixed choice.
   */
  options?: RememberOption[];
}

/** Everything decisions in one workspace need, read once; deciding from it does no I/O. */
export interface AgentSnapshot {
  readonly agent: string;
  readonly paths: StorePaths;
  /** The stores read (invalid ones with their reason): decisions fail closed while one is invalid. */
  readonly stores: readonly StoreInfo[];
  /** Decide one call as the agent would (the cockpit may be stricter, never more permissive). */
  decide(req: DecideRequest): AgentDecision;
  /**
   * Decide a call a person is being asked about: only explicit authority (an allow rule, a session entry) settles it
   * as allow; heuristic allows (read-only, modes) become asks.
   */
  decideAsked(req: DecideRequest): AgentDecision;
  /** What remembering would store for an asked call (nothing for a safety check). */
  remember(req: DecideRequest, decision: Decision): RememberOffer;
}

/** A session entry as data (the database row); the engine turns the agent's own rows into session rules. */
export interface SessionRule {
  id: string;
  agentSessionId: string;
  agent: string;
  action: "allow" | "ask" | "deny";
  rule: string;
}

export interface LoadInput {
  paths: StorePaths;
  /** The agent's folder, for agents whose project stores depend on it. */
  cwd?: string | null;
  /** Session entries of the workspace; only this agent's rows of `sessionId` become rules. */
  sessionRows?: readonly SessionRule[];
  sessionId?: string;
}

/** The agent's dialect of the engine. */
export interface AgentEngine {
  /** Its modes: the canonical name of `mode`, or why it is not one. */
  parseMode(mode: string): ParseResult<string>;
  /** Its call shape (`decide --call`, the agent API): the call, or why it is not one. */
  parseCall(raw: unknown): ParseResult<ToolCall>;
  /** Extra `cockpit decide` flags it understands, passed as `DecideRequest.options`. */
  readonly flags?: Readonly<Record<string, { type: "string" | "boolean"; help: string }>>;
  load(input: LoadInput): Promise<AgentSnapshot>;
  /** A rule (in the agent's words) that allows every use of its tool: storing it needs a confirmation. */
  isToolWide(rule: string): Promise<boolean>;
  /** Parse a rule as this agent writes it: the tool and the part in parentheses, for listing session entries. */
  describeRule(rule: string, action: "allow" | "ask" | "deny"): ParseResult<{ tool: string; specifier: string | null }>;
}

// ——— connector ———

/** A card as an agent's hook asks for it (`POST /api/agent/v1/cards`). */
export interface CardRequest {
  agent: string;
  sessionId: string;
  rootSessionId?: string;
  originPath?: string;
  cwd?: string;
  mode?: string;
  tool: string;
  input: Record<string, unknown>;
  reason?: string;
  /** The agent itself decided to ask: rules it already weighed never settle the card as allow (the floor). */
  agentAsked?: boolean;
  /**
   * Rules the agent itself suggests remembering, one list per suggestion (Claude Code's `permission_suggestions`):
   * the card offers them only after the same lint as its own choices.
   */
  suggestions?: string[][];
}

/** How admission went: settled by policy at once, pending (wait for it), or refused (the agent's prompt decides). */
export type Admission =
  | { status: "settled"; decision: "allow" | "deny"; reason: string }
  | { status: "pending"; id: string }
  | { status: "refused"; why: string };

/** A card's state as a waiting hook sees it. */
export interface CardOutcome {
  status: "pending" | "allowed" | "denied" | "coalesced" | "expired" | "aborted";
  settlement: { outcome: "allow" | "deny"; message: string | null; by?: string | null } | null;
}

/** A tool call an agent ran or is about to run, for the audit log. */
export interface ToolUseEvent {
  phase: "pre" | "post";
  sessionId: string;
  tool: string | null;
  input: Record<string, unknown>;
  toolUseId?: string | null;
  cwd?: string | null;
  outcome?: "allow" | "ask" | "deny";
  reason?: string;
  /** When the agent saw it (ISO-8601). */
  at?: string;
}

/**
 * What a connector may ask of the cockpit. The command hook (`cockpit hook <agent>`) reaches it over HTTP with the
 * agent token; the HTTP hook route calls the verbs in process. A connector never allows by default: any failure
 * leaves the decision to the agent's own prompt.
 */
export interface CockpitPort {
  admit(card: CardRequest): Promise<Admission>;
  /** Wait up to `seconds` for the card to settle; `pending` when it did not (or `signal` aborted). */
  wait(cardId: string, seconds: number, signal?: AbortSignal): Promise<CardOutcome>;
  /** The hook gives up waiting: the card settles as aborted. */
  abort(cardId: string): Promise<void>;
  /** The user wrote to the agent again: ends an absence hold. */
  userMessage(sessionId: string): Promise<void>;
  toolUse(agent: string, event: ToolUseEvent): Promise<void>;
}

/** One hook invocation's circumstances. */
export interface HookContext {
  port: CockpitPort;
  /** How long to wait for a person (seconds), below the hook's own timeout. */
  waitSeconds: number;
  /** Aborted when the agent ends the hook (the terminal answered) or the request closes. */
  signal: AbortSignal;
}

/** Where `connect` installs: a workspace's file, or the user's own (`--user`) where the agent reads one. */
export interface ConnectTarget {
  workspace: string;
  home: string;
  /** The user's hook file instead of the workspace's. */
  user?: boolean;
  /** The cockpit's address, written into command hooks. */
  url: string;
  /** Absolute path of this checkout's CLI entry point (command hooks run it from any folder). */
  cliPath: string;
  /** An HTTP hook (`"type": "http"`) instead of a command hook, where the agent has them. */
  http?: boolean;
  /**
   * HTTP hooks for the events that are only recorded (Claude Code: PreToolUse, PostToolUse), command hooks for
   * the rest, where the agent has HTTP hooks: auditing a tool call costs one local request, not a process start.
   */
  auditHttp?: boolean;
}

export interface ConnectResult {
  file: string;
  changed: boolean;
  /** What was installed or removed, for the terminal ("PermissionRequest, PreToolUse"). */
  events: string[];
  /** What the person does next (the token export line). */
  next?: string;
}

/** The agent's own hook protocol: installing the cockpit's hooks, and answering one invocation. */
export interface AgentConnector<Payload = unknown> {
  /**
   * The agent's hook payload (the fields the cockpit reads; everything else passes through). Any zod schema: the
   * hook bridge's small bundle takes `zod/mini` ones; parse with zod's functions (`safeParse(schema, value)`).
   */
  readonly payload: $ZodType<Payload>;
  /** Whether `connect --http` is possible (the agent has HTTP hooks). */
  readonly http: boolean;
  /** Whether `connect --user` is possible (the agent reads a hook file in the user's home). */
  readonly user: boolean;
  connect(target: ConnectTarget): Promise<ConnectResult>;
  /** Removes exactly what `connect` added; every other byte stays. */
  disconnect(target: Omit<ConnectTarget, "url" | "cliPath" | "http" | "auditHttp">): Promise<ConnectResult>;
  /**
   * One hook invocation: the agent's payload (parsed by `payload`) in, the JSON the agent reads out; null prints
   * nothing (the agent's own prompt decides). Never allows by default: an unreachable cockpit or no answer gives null
   * or the agent's own "ask".
   */
  handle(payload: Payload, ctx: HookContext): Promise<unknown | null>;
  /**
   * What the hook prints when it cannot ask the cockpit at all (no token, a payload it cannot read, any error), for
   * agents that let an action through on an empty answer (Cursor: its own "ask"). Absent or null: nothing is printed.
   */
  fallback?(raw: unknown, why: string): unknown | null;
}
