-- The wake-up of an async execution, addressed (issue 12): start_execution NOTIFYs every process working the queue
-- when it queues an execution, and each of them fetches. A server process that works the queue itself and has a
-- slot free for the job now takes it instead: it passes p_notify = false and fetches the job after the commit, so
-- the other processes are not woken for it. The signatures without p_notify stay, notifying as before, for a
-- process of the previous release still running during a rolling deploy.
CREATE FUNCTION start_execution(
	p_id uuid,
	p_org text,
	p_pipeline uuid,
	p_version integer,
	p_status text,
	p_trigger text,
	p_test_mode boolean,
	p_retry_of uuid,
	p_inputs jsonb,
	p_started_at timestamptz,
	p_limit integer,
	p_notify boolean
) RETURNS TABLE (id uuid, started_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	v_slot integer;
	v_looked_again boolean := false;
BEGIN
	-- the admission of 0014, unchanged
	IF p_trigger <> 'step' THEN
		LOOP
			SELECT s.slot INTO v_slot
				FROM execution_slots s
				LEFT JOIN executions e ON e.id = s.execution_id
				WHERE s.org_id = p_org AND s.slot <= p_limit
					AND (e.id IS NULL OR e.status NOT IN ('queued', 'running'))
				ORDER BY s.slot
				LIMIT 1
				FOR UPDATE OF s SKIP LOCKED;
			IF v_slot IS NULL THEN
				IF (SELECT count(*) FROM execution_slots s WHERE s.org_id = p_org AND s.slot <= p_limit) >= p_limit THEN
					IF v_looked_again THEN
						RETURN;
					END IF;
					v_looked_again := true;
					CONTINUE;
				END IF;
				INSERT INTO execution_slots (org_id, slot)
					SELECT p_org, g FROM generate_series(1, p_limit) g
					ON CONFLICT DO NOTHING;
				CONTINUE;
			END IF;
			EXIT WHEN NOT EXISTS (
				SELECT 1 FROM execution_slots s JOIN executions e ON e.id = s.execution_id
					WHERE s.org_id = p_org AND s.slot = v_slot AND e.status IN ('queued', 'running'));
		END LOOP;
		UPDATE execution_slots s SET execution_id = p_id WHERE s.org_id = p_org AND s.slot = v_slot;
	END IF;
	IF p_status = 'queued' AND p_notify THEN
		PERFORM pg_notify('clinflow_execution_jobs', ''); -- delivered at commit, with the queue job written beside the row
	END IF;
	RETURN QUERY
		INSERT INTO executions AS e (id, org_id, pipeline_id, pipeline_version, status, trigger, test_mode, retry_of, inputs, started_at)
		VALUES (p_id, p_org, p_pipeline, p_version, p_status, p_trigger, p_test_mode, p_retry_of, p_inputs, p_started_at)
		RETURNING e.id, e.started_at;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION start_execution(
	p_id uuid,
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
LANGUAGE sql VOLATILE AS $$
	SELECT * FROM start_execution(p_id, p_org, p_pipeline, p_version, p_status, p_trigger, p_test_mode, p_retry_of, p_inputs, p_started_at, p_limit, true);
$$;
--> statement-breakpoint
CREATE FUNCTION start_execution_if_current(
	p_id uuid,
	p_org text,
	p_pipeline uuid,
	p_version integer,
	p_require_deployed boolean,
	p_status text,
	p_trigger text,
	p_test_mode boolean,
	p_retry_of uuid,
	p_inputs jsonb,
	p_started_at timestamptz,
	p_limit integer,
	p_notify boolean
) RETURNS TABLE (id uuid, started_at timestamptz, outcome text)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
	IF NOT EXISTS (
		SELECT 1 FROM pipelines p
			WHERE p.id = p_pipeline AND p.org_id = p_org AND p.version = p_version
				AND (NOT p_require_deployed OR p.status = 'deployed')) THEN
		RETURN QUERY SELECT NULL::uuid, NULL::timestamptz, 'changed'::text;
		RETURN;
	END IF;
	RETURN QUERY SELECT s.id, s.started_at, 'started'::text
		FROM start_execution(p_id, p_org, p_pipeline, p_version, p_status, p_trigger, p_test_mode, p_retry_of, p_inputs, p_started_at, p_limit, p_notify) s;
	IF NOT FOUND THEN
		RETURN QUERY SELECT NULL::uuid, NULL::timestamptz, 'full'::text;
	END IF;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION start_execution_if_current(
	p_id uuid,
	p_org text,
	p_pipeline uuid,
	p_version integer,
	p_require_deployed boolean,
	p_status text,
	p_trigger text,
	p_test_mode boolean,
	p_retry_of uuid,
	p_inputs jsonb,
	p_started_at timestamptz,
	p_limit integer
) RETURNS TABLE (id uuid, started_at timestamptz, outcome text)
LANGUAGE sql VOLATILE AS $$
	SELECT * FROM start_execution_if_current(p_id, p_org, p_pipeline, p_version, p_require_deployed, p_status, p_trigger, p_test_mode, p_retry_of, p_inputs, p_started_at, p_limit, true);
$$;
