import { getNodeType } from '@/engine/nodes';
import type { pipelines } from '@/server/db/schema';
import { logger } from '@/server/logger';
import { SCHEDULE_QUEUE, type Queue, type ScheduleJob } from '@/server/queue/queue';

type Row = typeof pipelines.$inferSelect;

/**
 * Makes pg-boss's schedule for a pipeline match its state: a deployed pipeline whose trigger is a valid
 * schedule-trigger has one schedule (keyed by the pipeline id); anything else has none.
 */
export async function syncSchedule(queue: Queue | undefined, pipeline: Row): Promise<void> {
  if (!queue) return;
  const trigger = pipeline.definition.nodes.find((n) => n.type === 'schedule-trigger');
  const parsed = trigger ? getNodeType('schedule-trigger')?.config.safeParse(trigger.config ?? {}) : undefined;
  if (pipeline.status === 'deployed' && parsed?.success) {
    const config = parsed.data as { cron: string; timezone: string };
    const job: ScheduleJob = { pipelineId: pipeline.id, orgId: pipeline.orgId };
    await queue.boss.schedule(SCHEDULE_QUEUE, config.cron, job, { tz: config.timezone, key: pipeline.id });
    logger.info(`scheduled pipeline ${pipeline.id}: ${config.cron} (${config.timezone})`);
  } else {
    await queue.boss.unschedule(SCHEDULE_QUEUE, pipeline.id);
  }
}
