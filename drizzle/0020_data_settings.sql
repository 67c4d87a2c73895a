-- What a run keeps and for how long (issue 27): an organization's defaults and a pipeline's overrides, each a JSON
-- object of src/shared/data-settings.ts (policy, payload_days, execution_days, max_executions); {} inherits all.
ALTER TABLE "organizations" ADD COLUMN "data_settings" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "pipelines" ADD COLUMN "data_settings" jsonb DEFAULT '{}'::jsonb NOT NULL;
