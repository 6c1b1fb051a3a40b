CREATE TABLE "audit_checkpoints" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"head_hash" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"key_id" text NOT NULL,
	"signature" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_events" DROP CONSTRAINT "audit_events_workspace_id_workspaces_id_fk";
--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "seq" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "actor_type" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "actor_id" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "actor_role" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "actor_session" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "actor_channel" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "actor_address" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "outcome" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "decision_source" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "rule" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "store" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "agent" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "agent_session_id" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "tool_use_id" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "cwd" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "tool" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "input" jsonb;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "prev_hash" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "hash" text;--> statement-breakpoint
ALTER TABLE "notify_deliveries" ADD COLUMN "checkpoint_seq" bigint;--> statement-breakpoint
CREATE INDEX "audit_events_outcome_idx" ON "audit_events" USING btree ("outcome");--> statement-breakpoint
CREATE INDEX "audit_events_agent_session_id_idx" ON "audit_events" USING btree ("agent_session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "notify_deliveries_checkpoint_endpoint_uq" ON "notify_deliveries" USING btree ("checkpoint_seq","endpoint_id");