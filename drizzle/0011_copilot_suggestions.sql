CREATE TABLE "copilot_suggestions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" text NOT NULL,
	"pipeline_id" uuid NOT NULL,
	"pipeline_version" integer NOT NULL,
	"kind" text NOT NULL,
	"node_id" text,
	"title" text NOT NULL,
	"change" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"applied_version" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "copilot_suggestions" ADD CONSTRAINT "copilot_suggestions_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "copilot_suggestions" ADD CONSTRAINT "copilot_suggestions_pipeline_id_pipelines_id_fk" FOREIGN KEY ("pipeline_id") REFERENCES "public"."pipelines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "copilot_suggestions_pipeline_idx" ON "copilot_suggestions" USING btree ("pipeline_id","created_at");