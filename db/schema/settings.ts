import { jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Small server-wide settings and generated secrets (e.g. VAPID keys), one row per key. */
export const appSettings = pgTable("app_settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").$type<unknown>().notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
