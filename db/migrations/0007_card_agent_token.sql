ALTER TABLE "cards" ADD COLUMN "agent_token_id" text;--> statement-breakpoint
CREATE INDEX "cards_agent_token_id_status_idx" ON "cards" USING btree ("agent_token_id","status");