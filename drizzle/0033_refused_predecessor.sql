-- An MLLP batch admits a connection's messages in one statement, each run after the run of the message before it
-- (after_id). When that message is in the same statement and was not admitted (its organization full, its pipeline
-- changed), the next one is refused too ('after_refused'): admitted, it would run before the refused one, which its
-- sender sends again (services/mllp/store-messages.ts). Earlier calls' rows are visible here: a VOLATILE function
-- reads with a snapshot of its own, taken after them.
CREATE FUNCTION start_execution_after(
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
	p_notify boolean,
	p_claimed_by uuid,
	p_inputs_z bytea,
	p_after_id uuid,
	p_after_in_statement boolean
) RETURNS TABLE (id uuid, started_at timestamptz, outcome text)
LANGUAGE plpgsql VOLATILE ROWS 1 AS $$
BEGIN
	IF p_after_in_statement AND NOT EXISTS (SELECT 1 FROM executions e WHERE e.id = p_after_id) THEN
		RETURN QUERY SELECT NULL::uuid, NULL::timestamptz, 'after_refused'::text;
		RETURN;
	END IF;
	RETURN QUERY SELECT * FROM start_execution_if_current(p_id, p_org, p_pipeline, p_version, p_require_deployed, p_status, p_trigger, p_test_mode,
		p_retry_of, p_inputs, p_started_at, p_limit, p_notify, p_claimed_by, p_inputs_z, p_after_id);
END
$$;
