import { bigserial, boolean, index, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { workspaces } from "./workspaces";

export type CardStatus = "pending" | "allowed" | "denied" | "expired" | "aborted" | "coalesced";
/** An existing allow that already covers a proposed workspace rule (store: workspace-relative or `~/`). */
export type CoveredBy = { rule: string; store: string; scope: string };
export type CardRemember = {
  session: string[];
  workspace: string[];
  workspaceStore: string | null;
  /** `global` when "always allow" writes a file in the user's home (Codex's ~/.codex/rules/default.rules). */
  workspaceScope?: "workspace" | "global";
  /** Parallel to `workspace`; present only when at least one proposed rule is already covered. */
  coveredBy?: (CoveredBy | null)[];
  /** Proposed rules the engine finds match every input of their tool (lib/policy/tool-wide); absent: none. */
  wide?: string[];
  /**
   * The remember chooser, narrowest first (lib/policy/remember.ts, linted by lib/hygiene/remember-offers.ts); the
   * first is the default and equals `session`/`workspace` above. Absent on cards admitted before the chooser.
   */
  options?: RememberOption[];
};
export type RememberLevelName = "exact" | "subcommand" | "program" | "folder" | "suggested";
export type RememberOption = {
  level: RememberLevelName;
  label: string;
  rules: string[];
  verdict: { severity: "ok" | "info" | "warning"; notes: string[] };
  /** The agent itself suggested these rules (Claude Code's `permission_suggestions`). */
  suggested?: true;
  /** Parallel to `rules`; present only when an existing allow already covers one. */
  coveredBy?: (CoveredBy | null)[];
};
/** What a remembering answer stored, and where: the card names it, and Undo revokes exactly these. */
export type RememberSaved = {
  level: RememberLevelName;
  rules: string[];
  /** Workspace-relative store file (Always allow) or null (the cockpit's session table). */
  store: string | null;
  /** Undo revoked the rules (who, when). */
  undone?: { by: string; at: string };
};
export type CardDecision = { step: string; reason: string; rule: string | null };
export type CardSettlement = {
  outcome: "allow" | "deny";
  remember: "once" | "session" | "workspace";
  message: string | null;
  /** user | policy | recheck | expired | absence-held | abort */
  source: string;
  /** Set when an "always allow" could not be written to the store file. */
  ruleNotSaved?: string;
  rule?: string | null;
  /** The passkey that confirmed this answer (workspaces whose approvals need a passkey). */
  passkey?: { id: string; name: string };
  /** Rules a remembering answer stored (absent: nothing, or a card settled before this was recorded). */
  saved?: RememberSaved;
  /** The answering person's role in the card's workspace at that moment, shown next to their name. */
  role?: string;
};

/** One permission prompt mirrored from an agent: the full request and its single settlement. */
export const cards = pgTable(
  "cards",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    agent: text("agent").notNull(),
    /** The agent token that admitted the card (null for people and cards from before tokens were recorded). */
    agentTokenId: text("agent_token_id"),
    agentSessionId: text("agent_session_id").notNull(),
    rootSessionId: text("root_session_id").notNull(),
    originPath: text("origin_path").notNull().default("/root"),
    /** The agent's working folder when it asked; rechecks decide with it too. */
    cwd: text("cwd"),
    tool: text("tool").notNull(),
    input: jsonb("input").$type<Record<string, unknown>>().notNull(),
    modelReason: text("model_reason"),
    modeBase: text("mode_base").notNull(),
    modeEffective: text("mode_effective").notNull(),
    cause: text("cause").notNull(),
    warnings: jsonb("warnings").$type<string[]>().notNull().default([]),
    safetyCheck: boolean("safety_check").notNull().default(false),
    remember: jsonb("remember").$type<CardRemember>().notNull(),
    /** The agent itself decided to ask (PermissionRequest): rules in its own files never settle it as allow. */
    agentAsked: boolean("agent_asked").notNull().default(false),
    decision: jsonb("decision").$type<CardDecision>().notNull(),
    hash: text("hash").notNull(),
    status: text("status").$type<CardStatus>().notNull().default("pending"),
    settledBy: text("settled_by"),
    settledVia: text("settled_via"),
    settledAt: timestamp("settled_at", { withTimezone: true }),
    settlement: jsonb("settlement").$type<CardSettlement>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    displayedAt: timestamp("displayed_at", { withTimezone: true }),
  },
  (t) => [
    index("cards_workspace_id_idx").on(t.workspaceId),
    index("cards_status_idx").on(t.status),
    index("cards_root_session_id_idx").on(t.rootSessionId),
    index("cards_created_at_idx").on(t.createdAt),
    index("cards_agent_token_id_status_idx").on(t.agentTokenId, t.status),
  ],
);

export type CardEventType = "enqueued" | "displayed" | "resolved" | "coalesced" | "swept" | "expired" | "aborted";

/** Lifecycle log of cards and the outbox other concerns (notifications) consume; written in the same transaction as the change. */
export const cardEvents = pgTable(
  "card_events",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    cardId: text("card_id")
      .notNull()
      .references(() => cards.id, { onDelete: "cascade" }),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    type: text("type").$type<CardEventType>().notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    actor: text("actor").notNull(),
    client: text("client"),
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index("card_events_card_id_idx").on(t.cardId),
    index("card_events_workspace_id_idx").on(t.workspaceId),
    index("card_events_type_idx").on(t.type),
  ],
);

/** Absence state of one root session: the queue's expiry deadline and the hold that follows an expiry. */
export const sessionHolds = pgTable(
  "session_holds",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    rootSessionId: text("root_session_id").notNull(),
    /** When the unanswered queue expires; null when the queue is empty or the timeout is off. */
    deadlineAt: timestamp("deadline_at", { withTimezone: true }),
    /** Set when the queue expired; new asks are denied at once until a user message. */
    heldAt: timestamp("held_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.rootSessionId] }),
    index("session_holds_deadline_at_idx").on(t.deadlineAt),
  ],
);
