import { bigserial, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { workspaces } from "./workspaces";

/** Every decision, answer and edit; written in the same transaction as the change. */
export const auditEvents = pgTable(
  "audit_events",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    target: text("target"),
    workspaceId: text("workspace_id").references(() => workspaces.id, { onDelete: "set null" }),
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index("audit_events_at_idx").on(t.at),
    index("audit_events_action_idx").on(t.action),
    index("audit_events_workspace_id_idx").on(t.workspaceId),
  ],
);
