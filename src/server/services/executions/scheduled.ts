import { and, eq } from 'drizzle-orm';
import { buildGraph, triggerInputs } from '@/engine/graph';
import { getNodeType } from '@/engine/nodes';
import type { TriggerHost, TriggerTarget } from '@/engine/node-type';
import type { Db } from '@/server/db/client';
import { pipelines } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { logger } from '@/server/logger';
import { runExecution } from './run-execution';
import { startExecution } from './start-execution';

/**
 * A due schedule: an execution of the deployed pipeline's current version, with the inputs its trigger
 * makes of the event. A pipeline undeployed or deleted in between (or whose trigger no longer listens
 * for schedules) has its schedule removed instead.
 */
export async function runScheduled(db: Db, host: TriggerHost, target: TriggerTarget): Promise<void> {
  const { pipelineId, orgId } = target;
  const [pipeline] = await db.select().from(pipelines).where(and(eq(pipelines.id, pipelineId), eq(pipelines.orgId, orgId)));
  const inputs = pipeline?.status === 'deployed' ? triggerInputs(buildGraph(pipeline.definition, getNodeType), { kind: 'schedule', at: new Date().toISOString() }) : null;
  if (!pipeline || !inputs) {
    await host.unschedule(target);
    return;
  }
  try {
    const started = await startExecution(db, {
      orgId,
      pipelineId,
      pipelineVersion: pipeline.version,
      trigger: 'schedule',
      testMode: false,
      inputs,
      status: 'running',
    });
    await runExecution(db, started.id);
  } catch (e) {
    if (e instanceof AppError && e.code === 'CONCURRENCY_LIMIT') logger.warn(`schedule of ${pipelineId} skipped: ${e.message}`);
    else throw e;
  }
}
