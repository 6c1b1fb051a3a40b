import { bigint, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Every decision, answer and edit, written only by lib/audit's recordAudit in the same transaction
 * as the change. Rows form a hash chain (prev_hash → hash); seq is assigned by the writer under a
 * lock, so it is gap-free. No foreign keys: a cascading update would rewrite history and break the chain.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    seq: bigint("seq", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    workspaceId: text("workspace_id"),
    /** The actor's display label ("local-cli", "agent:ci", a person's name); never a secret. */
    actor: text("actor").notNull(),
    actorType: text("actor_type"),
    actorId: text("actor_id"),
    actorRole: text("actor_role"),
    actorSession: text("actor_session"),
    actorChannel: text("actor_channel"),
    actorAddress: text("actor_address"),
    /** The event type, e.g. `card.resolved`, `entry.revoked`. */
    action: text("action").notNull(),
    target: text("target"),
    outcome: text("outcome"),
    decisionSource: text("decision_source"),
    rule: text("rule"),
    store: text("store"),
    agent: text("agent"),
    agentSessionId: text("agent_session_id"),
    toolUseId: text("tool_use_id"),
    cwd: text("cwd"),
    tool: text("tool"),
    /** The tool input with secret-looking values masked and file contents left out. */
    input: jsonb("input").$type<Record<string, unknown>>(),
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull().default({}),
    prevHash: text("prev_hash"),
    hash: text("hash"),
  },
  (t) => [
    index("audit_events_at_idx").on(t.at),
    index("audit_events_action_idx").on(t.action),
    index("audit_events_workspace_id_idx").on(t.workspaceId),
    index("audit_events_outcome_idx").on(t.outcome),
    index("audit_events_agent_session_id_idx").on(t.agentSessionId),
  ],
);

/** Signed statements "the chain had head H at seq N at time T"; the anchor after a retention cut. */
export const auditCheckpoints = pgTable("audit_checkpoints", {
  seq: bigint("seq", { mode: "number" }).primaryKey(),
  headHash: text("head_hash").notNull(),
  at: timestamp("at", { withTimezone: true }).notNull(),
  /** SHA-256 of the signing public key (raw 32 bytes), hex. */
  keyId: text("key_id").notNull(),
  /** Ed25519 signature over the canonical checkpoint statement, base64url. */
  signature: text("signature").notNull(),
});
