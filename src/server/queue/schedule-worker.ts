import { and, eq } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { pipelines } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { logger } from '@/server/logger';
import { runExecution } from '@/server/services/executions/run-execution';
import { startExecution } from '@/server/services/executions/start-execution';
import { SCHEDULE_QUEUE, type Queue, type ScheduleJob } from './queue';

/** Turns each due schedule into an execution of the deployed pipeline's current version. */
export async function startScheduleWorker(queue: Queue, db: Db): Promise<void> {
  await queue.boss.work<ScheduleJob>(SCHEDULE_QUEUE, { batchSize: 5, pollingIntervalSeconds: 1 }, async (jobs) => {
    for (const job of jobs) {
      const { pipelineId, orgId } = job.data;
      const [pipeline] = await db.select().from(pipelines).where(and(eq(pipelines.id, pipelineId), eq(pipelines.orgId, orgId)));
      if (!pipeline || pipeline.status !== 'deployed') {
        await queue.boss.unschedule(SCHEDULE_QUEUE, pipelineId); // undeployed or deleted in between
        continue;
      }
      const trigger = pipeline.definition.nodes.find((n) => n.type === 'schedule-trigger');
      const fixed = (trigger?.config as { inputs?: Record<string, unknown> } | undefined)?.inputs ?? {};
      try {
        const started = await startExecution(db, {
          orgId,
          pipelineId,
          pipelineVersion: pipeline.version,
          trigger: 'schedule',
          testMode: false,
          inputs: { ...fixed, scheduled_at: new Date().toISOString() },
          status: 'running',
        });
        await runExecution(db, started.id);
      } catch (e) {
        if (e instanceof AppError && e.code === 'CONCURRENCY_LIMIT') logger.warn(`schedule of ${pipelineId} skipped: ${e.message}`);
        else throw e;
      }
    }
  });
}
