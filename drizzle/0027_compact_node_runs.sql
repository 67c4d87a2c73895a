-- A run that keeps no payload and did not fail (data policy `errors` or `metadata`) stores its node records in one
-- value of its executions row, written by the end's statement, instead of a row per node (issue 27: ~1.9 KB of
-- execution_nodes per feed message). Runs under `full` and failed runs keep their rows. See node-runs.ts.
ALTER TABLE "executions" ADD COLUMN "node_runs" json;
