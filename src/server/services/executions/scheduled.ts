import type { TriggerHost, TriggerTarget } from '@/engine/node-type';
import { AppError } from '@/server/errors';
import { logger } from '@/server/logger';
import type { RunHost } from '../context';
import { deployedInputs } from './runnable-pipeline';
import { runExecution } from './run-execution';
import { startExecution } from './start-execution';

/**
 * A due schedule: an execution of the pipeline's deployed version (not of a version saved since), with the
 * inputs its trigger makes of the event. A pipeline undeployed or deleted in between (or whose deployed
 * trigger no longer listens for schedules) has its schedule removed instead.
 */
export async function runScheduled(rt: RunHost, host: TriggerHost, target: TriggerTarget): Promise<void> {
  const { db } = rt;
  const { pipelineId, orgId } = target;
  const { version, inputs } = await deployedInputs(db, orgId, pipelineId, { kind: 'schedule', at: new Date().toISOString() });
  if (version === null || !inputs) {
    await host.unschedule(target);
    return;
  }
  try {
    const started = await startExecution(db, {
      orgId,
      pipelineId,
      pipelineVersion: version,
      trigger: 'schedule',
      testMode: false,
      inputs,
      status: 'running',
    });
    await runExecution(rt, started.id);
  } catch (e) {
    if (e instanceof AppError && e.code === 'CONCURRENCY_LIMIT') logger.warn(`schedule of ${pipelineId} skipped: ${e.message}`);
    else throw e;
  }
}
