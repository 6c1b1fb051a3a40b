import { boolean, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** A project folder an agent works in. `path` is absolute and normalised. */
export const workspaces = pgTable("workspaces", {
  id: text("id").primaryKey(),
  path: text("path").notNull().unique(),
  name: text("name").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  /** "Approvals need a passkey": answers in this workspace must carry a WebAuthn assertion over the card. */
  requirePasskey: boolean("require_passkey").notNull().default(false),
});
