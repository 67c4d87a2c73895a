-- What a run kept (issue 27): the data policy it applied, what of its payloads is stored now (kept, input,
-- not_kept, pruned) and the JSON bytes of its input, its outputs and what its records hold (src/server/services/
-- executions/data-policy.ts). Runs before this migration kept everything: the constant default needs no rewrite.
ALTER TABLE "executions" ADD COLUMN "data_policy" text;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "payloads" text DEFAULT 'kept' NOT NULL;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "input_bytes" integer;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "output_bytes" integer;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "stored_bytes" integer;