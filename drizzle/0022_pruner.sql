-- Retention (issue 27): what the pruner ran and removed (prune_runs, and per pipeline prune_counts, for the dashboard),
-- and the marker of a run's payloads. `payloads` is the same column the data policy's migration (0021_data_policy)
-- adds — kept, input, not_kept, pruned — hence IF NOT EXISTS: whichever of the two runs first adds it. The partial
-- index holds only runs whose payloads are still there, so payload expiry finds the oldest of a pipeline without
-- walking the ones already pruned.
CREATE TABLE "prune_counts" (
	"run_id" uuid NOT NULL,
	"org_id" text NOT NULL,
	"pipeline_id" uuid NOT NULL,
	"executions_deleted" integer DEFAULT 0 NOT NULL,
	"payloads_pruned" integer DEFAULT 0 NOT NULL,
	"bytes_freed" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "prune_counts_run_id_org_id_pipeline_id_pk" PRIMARY KEY("run_id","org_id","pipeline_id")
);
--> statement-breakpoint
CREATE TABLE "prune_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"job_id" text,
	"runner" text NOT NULL,
	"as_of" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"status" text NOT NULL,
	"executions_deleted" integer DEFAULT 0 NOT NULL,
	"payloads_pruned" integer DEFAULT 0 NOT NULL,
	"bytes_freed" bigint DEFAULT 0 NOT NULL,
	"error" text
);
--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN IF NOT EXISTS "payloads" text DEFAULT 'kept' NOT NULL;--> statement-breakpoint
ALTER TABLE "prune_counts" ADD CONSTRAINT "prune_counts_run_id_prune_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."prune_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prune_counts" ADD CONSTRAINT "prune_counts_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "prune_counts_org_idx" ON "prune_counts" USING btree ("org_id","run_id");--> statement-breakpoint
CREATE INDEX "prune_runs_started_idx" ON "prune_runs" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "executions_payloads_held_idx" ON "executions" USING btree ("pipeline_id","created_at") WHERE payloads in ('kept', 'input');--> statement-breakpoint
-- The pruner turns about 1/payload_days of the stored payloads into dead row versions (and dead TOAST chunks) a day:
-- autovacuum reclaims them for reuse from 5% of the rows instead of its default 20%, so the table holds less of them.
ALTER TABLE "execution_nodes" SET (autovacuum_vacuum_scale_factor = 0.05, toast.autovacuum_vacuum_scale_factor = 0.05);--> statement-breakpoint
ALTER TABLE "executions" SET (autovacuum_vacuum_scale_factor = 0.05, toast.autovacuum_vacuum_scale_factor = 0.05);
