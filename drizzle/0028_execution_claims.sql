-- A run the MLLP feed's process admits to run itself carries its claim in its row (claimed_by: the process instance),
-- written by its admission, instead of a pg-boss job inserted and claimed beside it: a steady feed's batch is one
-- statement. queue_processes holds each instance's heartbeat; the claims of an instance whose heartbeat is stale are
-- handed to the queue (src/server/queue/claims.ts).
CREATE TABLE "queue_processes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "claimed_by" uuid;--> statement-breakpoint
CREATE INDEX "executions_claimed_idx" ON "executions" USING btree ("claimed_by") WHERE claimed_by is not null;--> statement-breakpoint
-- start_execution with the claim: the body of 0018's, the row written with p_claimed_by. The 12-argument signature
-- becomes a wrapper of this one (no claim), so the admission has one body.
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
	p_notify boolean,
	p_claimed_by uuid
) RETURNS TABLE (id uuid, started_at timestamptz)
LANGUAGE plpgsql VOLATILE ROWS 1 AS $$
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
		INSERT INTO executions AS e (id, org_id, pipeline_id, pipeline_version, status, trigger, test_mode, retry_of, inputs, started_at, claimed_by)
		VALUES (p_id, p_org, p_pipeline, p_version, p_status, p_trigger, p_test_mode, p_retry_of, p_inputs, p_started_at, p_claimed_by)
		RETURNING e.id, e.started_at;
END
$$;--> statement-breakpoint
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
	p_limit integer,
	p_notify boolean
) RETURNS TABLE (id uuid, started_at timestamptz)
LANGUAGE sql VOLATILE ROWS 1 AS $$
	SELECT * FROM start_execution(p_id, p_org, p_pipeline, p_version, p_status, p_trigger, p_test_mode, p_retry_of, p_inputs, p_started_at, p_limit, p_notify,
		NULL::uuid);
$$;--> statement-breakpoint
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
	p_notify boolean,
	p_claimed_by uuid
) RETURNS TABLE (id uuid, started_at timestamptz, outcome text)
LANGUAGE plpgsql VOLATILE ROWS 1 AS $$
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
		FROM start_execution(p_id, p_org, p_pipeline, p_version, p_status, p_trigger, p_test_mode, p_retry_of, p_inputs, p_started_at, p_limit, p_notify,
			p_claimed_by) s;
	IF NOT FOUND THEN
		RETURN QUERY SELECT NULL::uuid, NULL::timestamptz, 'full'::text;
	END IF;
END
$$;--> statement-breakpoint
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
LANGUAGE sql VOLATILE ROWS 1 AS $$
	SELECT * FROM start_execution_if_current(p_id, p_org, p_pipeline, p_version, p_require_deployed, p_status, p_trigger, p_test_mode, p_retry_of, p_inputs,
		p_started_at, p_limit, p_notify, NULL::uuid);
$$;
