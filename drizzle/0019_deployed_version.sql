-- Deploy publishes one version (issue 26): production runs (the API, webhooks, schedules, MLLP listeners) run the
-- version deployed last, while saves make new versions that change nothing that runs until the next deploy.
-- deployed_version is that version, null while the pipeline is not deployed. Pipelines deployed before this
-- migration ran their current version: that is the version they publish.
ALTER TABLE "pipelines" ADD COLUMN "deployed_version" integer;--> statement-breakpoint
UPDATE "pipelines" SET "deployed_version" = "version" WHERE "status" = 'deployed';--> statement-breakpoint
-- A start guarded by the version the caller planned on: a real run (p_require_deployed) is admitted while that
-- version is the deployed one, a test run while it is the latest saved. The 12-argument signature (0018) wraps
-- this one and follows it.
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
	p_limit integer,
	p_notify boolean
) RETURNS TABLE (id uuid, started_at timestamptz, outcome text)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
	IF NOT EXISTS (
		SELECT 1 FROM pipelines p
			WHERE p.id = p_pipeline AND p.org_id = p_org
				AND CASE WHEN p_require_deployed THEN p.status = 'deployed' AND p.deployed_version = p_version
					ELSE p.version = p_version END) THEN
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
