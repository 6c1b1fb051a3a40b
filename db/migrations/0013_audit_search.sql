CREATE TABLE "audit_search" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"text" text NOT NULL
);
--> statement-breakpoint
DROP INDEX "audit_events_search_trgm_idx";--> statement-breakpoint
CREATE INDEX "audit_search_text_trgm_idx" ON "audit_search" USING gin ("text" gin_trgm_ops);--> statement-breakpoint
ALTER TABLE "audit_events" DROP COLUMN "search_text";