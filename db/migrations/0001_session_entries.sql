CREATE TABLE "session_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"agent_session_id" text NOT NULL,
	"agent" text NOT NULL,
	"action" text NOT NULL,
	"rule" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "session_entries" ADD CONSTRAINT "session_entries_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_entries_workspace_id_idx" ON "session_entries" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "session_entries_agent_session_id_idx" ON "session_entries" USING btree ("agent_session_id");