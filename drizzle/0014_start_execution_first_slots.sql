-- start_execution refused an admission while slots were free: on an organization's first executions, an
-- admission whose look for a free slot ran before a concurrent one had made the slot rows, then counted them
-- made, took "all slots exist" for "all slots taken" (seen: one of 50 concurrent async executions of a new
-- organization got 429 CONCURRENCY_LIMIT). It now looks once more, with a fresh snapshot, before refusing.
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
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	v_slot integer;
	v_looked_again boolean := false;
BEGIN
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
				-- an organization's slots are made on its first execution (and when the limit grows)
				IF (SELECT count(*) FROM execution_slots s WHERE s.org_id = p_org AND s.slot <= p_limit) >= p_limit THEN
					-- all there: but they may have been made by a concurrent first admission after the look above
					-- (its snapshot did not see them), so one more look before refusing
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
			-- The lock is ours now, but the row was chosen on a snapshot taken before it: an admission that
			-- committed in between may have taken it. Looked at again with a fresh snapshot; if taken, the
			-- next round sees that too and moves on.
			EXIT WHEN NOT EXISTS (
				SELECT 1 FROM execution_slots s JOIN executions e ON e.id = s.execution_id
					WHERE s.org_id = p_org AND s.slot = v_slot AND e.status IN ('queued', 'running'));
		END LOOP;
		UPDATE execution_slots s SET execution_id = p_id WHERE s.org_id = p_org AND s.slot = v_slot;
	END IF;
	IF p_status = 'queued' THEN
		PERFORM pg_notify('clinflow_execution_jobs', ''); -- delivered at commit, with the queue job written beside the row
	END IF;
	RETURN QUERY
		INSERT INTO executions AS e (id, org_id, pipeline_id, pipeline_version, status, trigger, test_mode, retry_of, inputs, started_at)
		VALUES (p_id, p_org, p_pipeline, p_version, p_status, p_trigger, p_test_mode, p_retry_of, p_inputs, p_started_at)
		RETURNING e.id, e.started_at;
END
$$;
