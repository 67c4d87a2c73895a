-- Alerts when production runs fail (issue 30 §1): a pipeline's error pipeline and alert window, and per pipeline and
-- error code the last alert sent and the failures held back since.
CREATE TABLE "alert_windows" (
	"pipeline_id" uuid NOT NULL,
	"error_code" text NOT NULL,
	"org_id" text NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"held_back" integer DEFAULT 0 NOT NULL,
	"released" integer DEFAULT 0 NOT NULL,
	"last_failed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "alert_windows_pipeline_id_error_code_pk" PRIMARY KEY("pipeline_id","error_code")
);
--> statement-breakpoint
CREATE TABLE "pipeline_alerts" (
	"pipeline_id" uuid PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"error_pipeline_id" uuid,
	"window_seconds" integer DEFAULT 900 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_windows" ADD CONSTRAINT "alert_windows_pipeline_id_pipelines_id_fk" FOREIGN KEY ("pipeline_id") REFERENCES "public"."pipelines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_windows" ADD CONSTRAINT "alert_windows_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline_alerts" ADD CONSTRAINT "pipeline_alerts_pipeline_id_pipelines_id_fk" FOREIGN KEY ("pipeline_id") REFERENCES "public"."pipelines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline_alerts" ADD CONSTRAINT "pipeline_alerts_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline_alerts" ADD CONSTRAINT "pipeline_alerts_error_pipeline_id_pipelines_id_fk" FOREIGN KEY ("error_pipeline_id") REFERENCES "public"."pipelines"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_windows_org_idx" ON "alert_windows" USING btree ("org_id","last_failed_at");