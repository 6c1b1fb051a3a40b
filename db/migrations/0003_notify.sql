CREATE TABLE "notify_action_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"card_id" text NOT NULL,
	"outcome" text NOT NULL,
	"endpoint_id" text,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notify_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"delivery_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"status_code" integer,
	"latency_ms" integer NOT NULL,
	"error" text,
	"response_body" text
);
--> statement-breakpoint
CREATE TABLE "notify_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"event_seq" bigint,
	"endpoint_id" text,
	"subscription_id" text,
	"card_id" text,
	"event_type" text NOT NULL,
	"msg_id" text NOT NULL,
	"event_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"lease_until" timestamp with time zone,
	"last_status_code" integer,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "notify_outbox_marks" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "push_subscriptions_endpoint_unique" UNIQUE("endpoint")
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text,
	"url" text NOT NULL,
	"format" text NOT NULL,
	"events" jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"delay_seconds" integer DEFAULT 0 NOT NULL,
	"ntfy_topic" text,
	"ntfy_priority" integer,
	"secret" text NOT NULL,
	"disabled_reason" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notify_action_tokens" ADD CONSTRAINT "notify_action_tokens_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notify_action_tokens" ADD CONSTRAINT "notify_action_tokens_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notify_attempts" ADD CONSTRAINT "notify_attempts_delivery_id_notify_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."notify_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notify_deliveries" ADD CONSTRAINT "notify_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notify_deliveries" ADD CONSTRAINT "notify_deliveries_subscription_id_push_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."push_subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notify_deliveries" ADD CONSTRAINT "notify_deliveries_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notify_action_tokens_card_id_idx" ON "notify_action_tokens" USING btree ("card_id");--> statement-breakpoint
CREATE INDEX "notify_action_tokens_endpoint_id_idx" ON "notify_action_tokens" USING btree ("endpoint_id");--> statement-breakpoint
CREATE INDEX "notify_attempts_delivery_id_idx" ON "notify_attempts" USING btree ("delivery_id");--> statement-breakpoint
CREATE UNIQUE INDEX "notify_deliveries_event_endpoint_uq" ON "notify_deliveries" USING btree ("event_seq","endpoint_id");--> statement-breakpoint
CREATE UNIQUE INDEX "notify_deliveries_event_subscription_uq" ON "notify_deliveries" USING btree ("event_seq","subscription_id");--> statement-breakpoint
CREATE INDEX "notify_deliveries_endpoint_id_idx" ON "notify_deliveries" USING btree ("endpoint_id");--> statement-breakpoint
CREATE INDEX "notify_deliveries_subscription_id_idx" ON "notify_deliveries" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "notify_deliveries_card_id_idx" ON "notify_deliveries" USING btree ("card_id");--> statement-breakpoint
CREATE INDEX "notify_deliveries_due_idx" ON "notify_deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "push_subscriptions_user_id_idx" ON "push_subscriptions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_workspace_id_idx" ON "webhook_endpoints" USING btree ("workspace_id");