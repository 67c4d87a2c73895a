import type { Db } from '@/server/db/client';
import { errorForLog, logger } from '@/server/logger';
import type { ErrorEvent } from '@/shared/error-event';
import { deployedInputs } from '../executions/runnable-pipeline';
import { startExecution } from '../executions/start-execution';

/** runExecution, passed in by the run path that calls this (importing it here would close an import cycle). */
export type RunExecution = (db: Db, executionId: string) => Promise<unknown>;

/**
 * Starts the error pipeline's deployed version with `event`, as a schedule starts its pipeline: an execution admitted
 * under the organization's limit (start_execution), then run in this process. Its trigger is `error`, so its own
 * failure never alerts (on-run-failed.ts). Resolves to the execution id, or null (with a warning in the log) when the
 * error pipeline is not deployed or not started by an error trigger.
 */
export async function startErrorPipeline(db: Db, orgId: string, errorPipelineId: string, event: ErrorEvent, run: RunExecution): Promise<string | null> {
  const { version, inputs } = await deployedInputs(db, orgId, errorPipelineId, { kind: 'error', event });
  if (version === null || !inputs) {
    const why = version === null ? 'is not deployed' : 'is not started by an error trigger';
    logger.warn(`error pipeline ${errorPipelineId} ${why}: no alert for the failed run ${event.execution.id}`, { orgId });
    return null;
  }
  const started = await startExecution(db, {
    orgId,
    pipelineId: errorPipelineId,
    pipelineVersion: version,
    trigger: 'error',
    testMode: false,
    inputs,
    status: 'running',
  });
  run(db, started.id).catch((e: unknown) => logger.error('error pipeline run failed to run', { executionId: started.id, error: errorForLog(e) }));
  return started.id;
}
