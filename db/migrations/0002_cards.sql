CREATE TABLE "card_events" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"card_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"type" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor" text NOT NULL,
	"client" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cards" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"agent" text NOT NULL,
	"agent_session_id" text NOT NULL,
	"root_session_id" text NOT NULL,
	"origin_path" text DEFAULT '/root' NOT NULL,
	"tool" text NOT NULL,
	"input" jsonb NOT NULL,
	"model_reason" text,
	"mode_base" text NOT NULL,
	"mode_effective" text NOT NULL,
	"cause" text NOT NULL,
	"warnings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"safety_check" boolean DEFAULT false NOT NULL,
	"remember" jsonb NOT NULL,
	"decision" jsonb NOT NULL,
	"hash" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"settled_by" text,
	"settled_via" text,
	"settled_at" timestamp with time zone,
	"settlement" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"displayed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "session_holds" (
	"workspace_id" text NOT NULL,
	"root_session_id" text NOT NULL,
	"deadline_at" timestamp with time zone,
	"held_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_holds_workspace_id_root_session_id_pk" PRIMARY KEY("workspace_id","root_session_id")
);
--> statement-breakpoint
ALTER TABLE "card_events" ADD CONSTRAINT "card_events_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_events" ADD CONSTRAINT "card_events_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_holds" ADD CONSTRAINT "session_holds_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "card_events_card_id_idx" ON "card_events" USING btree ("card_id");--> statement-breakpoint
CREATE INDEX "card_events_workspace_id_idx" ON "card_events" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "card_events_type_idx" ON "card_events" USING btree ("type");--> statement-breakpoint
CREATE INDEX "cards_workspace_id_idx" ON "cards" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "cards_status_idx" ON "cards" USING btree ("status");--> statement-breakpoint
CREATE INDEX "cards_root_session_id_idx" ON "cards" USING btree ("root_session_id");--> statement-breakpoint
CREATE INDEX "cards_created_at_idx" ON "cards" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "session_holds_deadline_at_idx" ON "session_holds" USING btree ("deadline_at");