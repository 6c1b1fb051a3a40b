import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { workspaces } from "./workspaces";

/** Session-scope rules ("allow for this session"), keyed by the agent's own session id. */
export const sessionEntries = pgTable(
  "session_entries",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    agentSessionId: text("agent_session_id").notNull(),
    agent: text("agent").notNull(),
    action: text("action").notNull(),
    rule: text("rule").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("session_entries_workspace_id_idx").on(t.workspaceId),
    index("session_entries_agent_session_id_idx").on(t.agentSessionId),
  ],
);
