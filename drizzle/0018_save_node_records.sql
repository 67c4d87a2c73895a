-- A run's node records and its result are written by two SQL functions instead of statements sent as text. PGlite
-- has no prepared statements, so it parsed and planned the result's write (an update and an insert … select from
-- jsonb_to_recordset, with its ON CONFLICT list) for every execution: ~300 of its ~800 µs. PL/pgSQL keeps the plan
-- of a function's statements for the session, on PGlite as on Postgres (where postgres.js prepared the text).
--
-- save_node_records: inserts or rewrites node records given as a JSON array of objects with the columns below
-- (times as epoch milliseconds); with p_running_since, also marks the execution running if it is still queued
-- (a worker's first progress write).
CREATE FUNCTION save_node_records(p_execution uuid, p_records jsonb, p_running_since timestamptz DEFAULT NULL)
RETURNS void LANGUAGE plpgsql VOLATILE AS $$
BEGIN
	IF p_running_since IS NOT NULL THEN
		UPDATE executions SET status = 'running', started_at = coalesce(started_at, p_running_since)
			WHERE id = p_execution AND status = 'queued';
	END IF;
	INSERT INTO execution_nodes (execution_id, node_id, node_type, status, inputs, outputs, logs, error, attempts,
			started_at, finished_at, duration_ms, emit, reason, refs)
		SELECT p_execution, r.node_id, r.node_type, r.status, r.inputs, r.outputs, r.logs, r.error, r.attempts,
			to_timestamp(r.started_ms / 1000.0), to_timestamp(r.finished_ms / 1000.0), r.duration_ms, r.emit, r.reason, r.refs
		FROM jsonb_to_recordset(p_records) AS r(node_id text, node_type text, status text, inputs jsonb, outputs jsonb,
			logs jsonb, error jsonb, attempts integer, started_ms double precision, finished_ms double precision,
			duration_ms integer, emit jsonb, reason text, refs jsonb)
		ON CONFLICT (execution_id, node_id) DO UPDATE SET node_type = excluded.node_type, status = excluded.status,
			inputs = excluded.inputs, outputs = excluded.outputs, logs = excluded.logs, error = excluded.error,
			attempts = excluded.attempts, started_at = excluded.started_at, finished_at = excluded.finished_at,
			duration_ms = excluded.duration_ms, emit = excluded.emit, reason = excluded.reason, refs = excluded.refs;
END
$$;
--> statement-breakpoint
-- save_execution_result: the end of an execution (status, outputs, error, timing) and its node records, in one
-- statement's transaction, so the result is stored whole or not at all; the records only if the execution exists.
CREATE FUNCTION save_execution_result(p_id uuid, p_status text, p_outputs jsonb, p_error jsonb, p_finished_at timestamptz,
	p_started_at timestamptz, p_duration_ms integer, p_records jsonb)
RETURNS void LANGUAGE plpgsql VOLATILE AS $$
BEGIN
	UPDATE executions SET status = p_status, outputs = p_outputs, error = p_error, finished_at = p_finished_at,
		started_at = coalesce(started_at, p_started_at), duration_ms = p_duration_ms
		WHERE id = p_id;
	IF FOUND THEN
		PERFORM save_node_records(p_id, p_records);
	END IF;
END
$$;
