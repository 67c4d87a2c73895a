-- A run's records (execution_nodes' inputs and outputs, the execution's inputs and outputs) are JSON of tens of
-- kilobytes to megabytes, written once per run and read when someone looks. Postgres compresses such values
-- with pglz by default; lz4 is several times faster at it for a slightly larger result (a 60 KB node record's
-- insert: 4.4 → 3.0 ms of Postgres's CPU). Only where the server was built with lz4: PGlite and some builds of
-- Postgres are not, and keep pglz. Values already stored stay as they are; new ones are written with lz4.
DO $$
BEGIN
	IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
		ALTER TABLE "execution_nodes" ALTER COLUMN "inputs" SET COMPRESSION lz4;
		ALTER TABLE "execution_nodes" ALTER COLUMN "outputs" SET COMPRESSION lz4;
		ALTER TABLE "execution_nodes" ALTER COLUMN "logs" SET COMPRESSION lz4;
		ALTER TABLE "executions" ALTER COLUMN "inputs" SET COMPRESSION lz4;
		ALTER TABLE "executions" ALTER COLUMN "outputs" SET COMPRESSION lz4;
	END IF;
END
$$;
