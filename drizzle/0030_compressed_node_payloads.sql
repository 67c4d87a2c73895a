-- A node record's inputs, outputs and emitted value stored deflated by the application (issue 27): under the `full`
-- policy a feed message's records were ~60 KB of jsonb (TOAST, pglz) and most of Postgres's CPU per message went to
-- parsing that JSON into jsonb and compressing it (an ADT bundle of 54 KB: ~0.9 ms to store as jsonb, ~0.02 ms as 10 KB of bytea).
-- payloads_z holds the deflate (raw, RFC 1951) of the JSON text {"inputs":…,"outputs":…[,"emit":…]} when it is large,
-- and `inputs` and `outputs` are then '{}', `emit` null; every reader goes through services/executions/stored-payloads.ts.
-- STORAGE EXTERNAL: out of line when large, never compressed again (pglz would only try and give up).
ALTER TABLE "execution_nodes" ADD COLUMN "payloads_z" bytea;--> statement-breakpoint
ALTER TABLE "execution_nodes" ALTER COLUMN "payloads_z" SET STORAGE EXTERNAL;--> statement-breakpoint
-- The same for an execution's outputs (what its pipeline-output nodes gave): outputs_z holds their JSON deflated when
-- large, and `outputs` is then null.
ALTER TABLE "executions" ADD COLUMN "outputs_z" bytea;--> statement-breakpoint
ALTER TABLE "executions" ALTER COLUMN "outputs_z" SET STORAGE EXTERNAL;
