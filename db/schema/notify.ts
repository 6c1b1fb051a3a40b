import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { cards } from "./cards";
import { users } from "./users";
import { workspaces } from "./workspaces";

export type WebhookFormat = "json" | "ntfy" | "slack" | "discord";
export type NotifyEventType = "card.admitted" | "card.settled" | "card.expired" | "audit.checkpoint";

/** A webhook target for one workspace (or all when workspace_id is null). The secret must stay readable: the server signs with it. */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").references(() => workspaces.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    format: text("format").$type<WebhookFormat>().notNull(),
    events: jsonb("events").$type<NotifyEventType[]>().notNull(),
    enabled: boolean("enabled").notNull().default(true),
    /** Send card.admitted only if the card is still pending after this many seconds. */
    delaySeconds: integer("delay_seconds").notNull().default(0),
    ntfyTopic: text("ntfy_topic"),
    ntfyPriority: integer("ntfy_priority"),
    /** Access token for an ntfy server with access control (sent as a bearer); never shown again. */
    ntfyToken: text("ntfy_token"),
    secret: text("secret").notNull(),
    disabledReason: text("disabled_reason"),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("webhook_endpoints_workspace_id_idx").on(t.workspaceId)],
);

/** Browser push subscriptions of signed-in users (the endpoint URL is a secret capability). */
export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull().unique(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    userAgent: text("user_agent"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("push_subscriptions_user_id_idx").on(t.userId)],
);

export type DeliveryStatus = "pending" | "delivered" | "failed" | "skipped";

/** One event for one target; the unique keys make the outbox fan-out idempotent. */
export const notifyDeliveries = pgTable(
  "notify_deliveries",
  {
    id: text("id").primaryKey(),
    /** card_events.seq; null for test sends and audit checkpoints. */
    eventSeq: bigint("event_seq", { mode: "number" }),
    /** audit_checkpoints.seq for `audit.checkpoint` deliveries. */
    checkpointSeq: bigint("checkpoint_seq", { mode: "number" }),
    endpointId: text("endpoint_id").references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    subscriptionId: text("subscription_id").references(() => pushSubscriptions.id, { onDelete: "cascade" }),
    cardId: text("card_id").references(() => cards.id, { onDelete: "cascade" }),
    eventType: text("event_type").notNull(),
    /** Standard Webhooks webhook-id: stable across retries and redelivery. */
    msgId: text("msg_id").notNull(),
    eventAt: timestamp("event_at", { withTimezone: true }).notNull(),
    status: text("status").$type<DeliveryStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    /** Another worker owns the delivery until then (several server processes on one Postgres). */
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("notify_deliveries_event_endpoint_uq").on(t.eventSeq, t.endpointId),
    uniqueIndex("notify_deliveries_event_subscription_uq").on(t.eventSeq, t.subscriptionId),
    uniqueIndex("notify_deliveries_checkpoint_endpoint_uq").on(t.checkpointSeq, t.endpointId),
    index("notify_deliveries_endpoint_id_idx").on(t.endpointId),
    index("notify_deliveries_subscription_id_idx").on(t.subscriptionId),
    index("notify_deliveries_card_id_idx").on(t.cardId),
    index("notify_deliveries_due_idx").on(t.status, t.nextAttemptAt),
  ],
);

/** Every attempt of a delivery: when, the receiver's status code, latency and error. */
export const notifyAttempts = pgTable(
  "notify_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => notifyDeliveries.id, { onDelete: "cascade" }),
    at: timestamp("at", { withTimezone: true }).notNull(),
    statusCode: integer("status_code"),
    latencyMs: integer("latency_ms").notNull(),
    error: text("error"),
    responseBody: text("response_body"),
  },
  (t) => [index("notify_attempts_delivery_id_idx").on(t.deliveryId)],
);

/** Card events already fanned out to deliveries (the outbox cursor keeps a window of these; see lib/notify/fan-out.ts). */
export const notifyOutboxMarks = pgTable("notify_outbox_marks", {
  seq: bigint("seq", { mode: "number" }).primaryKey(),
  at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
});

/** ntfy Approve/Deny capabilities: only the SHA-256 of the token, bound to one card and one outcome. */
export const notifyActionTokens = pgTable(
  "notify_action_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    cardId: text("card_id")
      .notNull()
      .references(() => cards.id, { onDelete: "cascade" }),
    outcome: text("outcome").$type<"allow" | "deny">().notNull(),
    endpointId: text("endpoint_id").references(() => webhookEndpoints.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("notify_action_tokens_card_id_idx").on(t.cardId),
    index("notify_action_tokens_endpoint_id_idx").on(t.endpointId),
  ],
);
