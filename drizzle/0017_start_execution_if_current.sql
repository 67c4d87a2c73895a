-- Starts an execution of the pipeline version the caller planned, in one statement, if that version is still the
-- pipeline's current one (and the pipeline deployed, when asked): a process that has run a pipeline before knows
-- its version and has the definition, so it need not read the pipeline first. Returns one row: 'started' with the
-- new execution's id and start time, 'full' when every slot is taken (see start_execution), or 'changed' when the
-- pipeline is not as planned (updated, undeployed, deleted) and nothing was written: the caller reads it again.
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
	p_limit integer
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
		FROM start_execution(p_id, p_org, p_pipeline, p_version, p_status, p_trigger, p_test_mode, p_retry_of, p_inputs, p_started_at, p_limit) s;
	IF NOT FOUND THEN
		RETURN QUERY SELECT NULL::uuid, NULL::timestamptz, 'full'::text;
	END IF;
END
$$;
