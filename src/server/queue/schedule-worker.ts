import { SCHEDULE_QUEUE, type Queue, type ScheduleJob } from './queue';

/** Hands each due schedule of a deployed pipeline to `run` (see server/jobs.ts), a few at a time. */
export async function startScheduleWorker(queue: Queue, run: (job: ScheduleJob) => Promise<void>): Promise<void> {
  await queue.boss.work<ScheduleJob>(SCHEDULE_QUEUE, { batchSize: 5, pollingIntervalSeconds: 1 }, async (jobs) => {
    for (const job of jobs) await run(job.data);
  });
}
