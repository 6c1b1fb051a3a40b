CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "audit_events_action_idx";--> statement-breakpoint
DROP INDEX "audit_events_workspace_id_idx";--> statement-breakpoint
DROP INDEX "audit_events_outcome_idx";--> statement-breakpoint
DROP INDEX "audit_events_agent_session_id_idx";--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(coalesce(actor, '') || ' ' || action || ' ' || coalesce(target, '') || ' ' || coalesce(outcome, '') || ' ' || coalesce(decision_source, '') || ' ' || coalesce(rule, '') || ' ' || coalesce(store, '') || ' ' || coalesce(agent, '') || ' ' || coalesce(agent_session_id, '') || ' ' || coalesce(tool, '') || ' ' || coalesce(cwd, '') || ' ' || left(coalesce(input::text, ''), 2000) || ' ' || left(detail::text, 2000))) STORED;--> statement-breakpoint
CREATE INDEX "audit_events_action_seq_idx" ON "audit_events" USING btree ("action","seq");--> statement-breakpoint
CREATE INDEX "audit_events_workspace_seq_idx" ON "audit_events" USING btree ("workspace_id","seq");--> statement-breakpoint
CREATE INDEX "audit_events_outcome_seq_idx" ON "audit_events" USING btree ("outcome","seq");--> statement-breakpoint
CREATE INDEX "audit_events_agent_session_seq_idx" ON "audit_events" USING btree ("agent_session_id","seq");--> statement-breakpoint
CREATE INDEX "audit_events_tool_seq_idx" ON "audit_events" USING btree ("tool","seq");--> statement-breakpoint
CREATE INDEX "audit_events_agent_seq_idx" ON "audit_events" USING btree ("agent","seq");--> statement-breakpoint
CREATE INDEX "audit_events_source_seq_idx" ON "audit_events" USING btree ("decision_source","seq");--> statement-breakpoint
CREATE INDEX "audit_events_actor_seq_idx" ON "audit_events" USING btree ("actor","seq");--> statement-breakpoint
CREATE INDEX "audit_events_workspace_rule_md5_idx" ON "audit_events" USING btree ("workspace_id",md5("rule"));--> statement-breakpoint
CREATE INDEX "audit_events_search_trgm_idx" ON "audit_events" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "audit_events_import_key_uq" ON "audit_events" USING btree (("detail"->>'importKey')) WHERE "audit_events"."detail" ? 'importKey';