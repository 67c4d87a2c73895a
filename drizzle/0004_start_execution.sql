-- Admits an execution if its organization has a free slot, and writes its row, in one statement.
--
-- At most p_limit executions of an organization are queued or running at once: each takes one of the
-- organization's p_limit rows of execution_slots. A slot is free when the execution it last held is no
-- longer queued or running, so finishing an execution frees its slot without another write, and a
-- crashed process cannot leak one. Concurrent admissions lock different slots (FOR UPDATE SKIP LOCKED):
-- they never wait for each other, however long their transactions take to commit, and two of them can
-- never take the same slot — so two processes cannot both admit the 101st.
-- Step sessions wait on a person, not on the machine: they take no slot.
-- A queued execution also wakes the workers (NOTIFY clinflow_execution_jobs, see src/server/queue/queue.ts).
-- Times come from the process that runs the execution, like its nodes' times, so timelines agree.
-- Returns no row when every slot is taken.
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
	p_limit integer
) RETURNS TABLE (id uuid, started_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	v_slot integer;
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
					RETURN;
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
