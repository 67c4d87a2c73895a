CREATE TABLE "reprocess_items" (
	"job_id" uuid NOT NULL,
	"execution_id" uuid NOT NULL,
	"batch" integer NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"retry_id" uuid,
	"error_code" text,
	"error_message" text,
	CONSTRAINT "reprocess_items_job_id_execution_id_pk" PRIMARY KEY("job_id","execution_id")
);
--> statement-breakpoint
CREATE TABLE "reprocess_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" text NOT NULL,
	"filter" jsonb NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_id" text,
	"total" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reprocess_items" ADD CONSTRAINT "reprocess_items_job_id_reprocess_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."reprocess_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reprocess_jobs" ADD CONSTRAINT "reprocess_jobs_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reprocess_items_batch_idx" ON "reprocess_items" USING btree ("job_id","batch");--> statement-breakpoint
CREATE UNIQUE INDEX "reprocess_items_once_idx" ON "reprocess_items" USING btree ("execution_id") WHERE state in ('pending', 'started');--> statement-breakpoint
CREATE INDEX "reprocess_jobs_org_idx" ON "reprocess_jobs" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "executions_retry_of_idx" ON "executions" USING btree ("retry_of") WHERE retry_of is not null;