-- The admission functions return one row at most; the planner took the default of 1,000 for a set-returning function.
-- The MLLP store admits a batch in one statement (jsonb_to_recordset × start_execution_if_current, 100 × 1,000 rows
-- estimated) and reads each started run's data policy by a subquery per row: estimated at 1.6 million, the statement
-- crossed jit_above_cost and was compiled by LLVM on every call (~180 ms of Postgres's CPU a batch). Said as it is, the
-- same statement is estimated at ~2,600 and runs in well under a millisecond.
ALTER FUNCTION start_execution(uuid, text, uuid, integer, text, text, boolean, uuid, jsonb, timestamptz, integer, boolean) ROWS 1;--> statement-breakpoint
ALTER FUNCTION start_execution(uuid, text, uuid, integer, text, text, boolean, uuid, jsonb, timestamptz, integer) ROWS 1;--> statement-breakpoint
ALTER FUNCTION start_execution_if_current(uuid, text, uuid, integer, boolean, text, text, boolean, uuid, jsonb, timestamptz, integer, boolean) ROWS 1;--> statement-breakpoint
ALTER FUNCTION start_execution_if_current(uuid, text, uuid, integer, boolean, text, text, boolean, uuid, jsonb, timestamptz, integer) ROWS 1;
