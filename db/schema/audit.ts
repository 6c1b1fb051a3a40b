import { sql } from "drizzle-orm";
import { bigint, index, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

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
    /** HMAC of seq and hash under a key derived from the checkpoint key (lib/audit/keys.ts `rowMac`); null on legacy rows. */
    mac: text("mac"),
  },
  (t) => [
    index("audit_events_at_idx").on(t.at),
    // (filter column, seq): a filtered first page is one backward index range scan, newest first.
    index("audit_events_action_seq_idx").on(t.action, t.seq),
    index("audit_events_workspace_seq_idx").on(t.workspaceId, t.seq),
    index("audit_events_outcome_seq_idx").on(t.outcome, t.seq),
    index("audit_events_agent_session_seq_idx").on(t.agentSessionId, t.seq),
    index("audit_events_tool_seq_idx").on(t.tool, t.seq),
    index("audit_events_agent_seq_idx").on(t.agent, t.seq),
    index("audit_events_source_seq_idx").on(t.decisionSource, t.seq),
    index("audit_events_actor_seq_idx").on(t.actor, t.seq),
    // Rule usage: count and last use per (workspace, rule). md5: a rule may be longer than a btree entry allows.
    index("audit_events_workspace_rule_md5_idx").on(t.workspaceId, sql`md5(${t.rule})`),
    // Importers dedupe on a hash of the source entry (detail.importKey).
    uniqueIndex("audit_events_import_key_uq")
      .on(sql`(${t.detail}->>'importKey')`)
      .where(sql`${t.detail} ? 'importKey'`),
  ],
);

/**
 * The free-text search's index: each event's lower-cased searchable text (lib/audit/search-index.ts), trigram-
 * indexed. Written in batches by the background worker and by a search that finds it behind, never on the insert
 * path: the trigram index would halve the rate at which events are appended. Rows are deleted with their events.
 */
export const auditSearch = pgTable(
  "audit_search",
  {
    seq: bigint("seq", { mode: "number" }).primaryKey(),
    text: text("text").notNull(),
  },
  (t) => [index("audit_search_text_trgm_idx").using("gin", t.text.op("gin_trgm_ops"))],
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
