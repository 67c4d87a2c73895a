-- Admits an execution if its organization has a free slot, and writes its row: one statement instead of
-- BEGIN / lock / count / insert / COMMIT. The advisory lock serialises admissions per organization across
-- processes; a VOLATILE function takes a fresh snapshot for each statement, so the count after the lock
-- sees every execution admitted before it. Step sessions wait on a person and hold no slot.
-- A queued execution also wakes the workers (NOTIFY clinflow_execution_jobs, see src/server/queue/queue.ts).
-- Times come from the process that runs the execution, like its nodes' times, so timelines agree.
-- Returns no row when the organization already has p_limit queued or running executions.
CREATE FUNCTION start_execution(
	p_org text,
	p_pipeline uuid,
	p_version integer,
	p_status text,
	p_trigger text,
	p_test_mode boolean,
	p_retry_of uuid,
	p_inputs jsonb,
	p_started_at timestamptz,
	p_limit integer
) RETURNS TABLE (id uuid, started_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
	PERFORM pg_advisory_xact_lock(hashtext('executions:' || p_org));
	IF (SELECT count(*) FROM executions e
			WHERE e.org_id = p_org AND e.status IN ('queued', 'running') AND e.trigger <> 'step') >= p_limit THEN
		RETURN;
	END IF;
	IF p_status = 'queued' THEN
		PERFORM pg_notify('clinflow_execution_jobs', ''); -- delivered at commit, with the queue job written beside the row
	END IF;
	RETURN QUERY
		INSERT INTO executions AS e (org_id, pipeline_id, pipeline_version, status, trigger, test_mode, retry_of, inputs, started_at)
		VALUES (p_org, p_pipeline, p_version, p_status, p_trigger, p_test_mode, p_retry_of, p_inputs, p_started_at)
		RETURNING e.id, e.started_at;
END
$$;
