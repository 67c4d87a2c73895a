import type { Queue } from './queue';

export const MAINTENANCE_QUEUE = 'clinflow-maintenance';

/** Runs `work` every five minutes on one of the processes sharing the queue (what it does is the services'). */
export async function startMaintenance(queue: Queue, work: () => Promise<unknown>): Promise<void> {
  await queue.boss.createQueue(MAINTENANCE_QUEUE, { retryLimit: 0, expireInSeconds: 300 });
  await queue.boss.schedule(MAINTENANCE_QUEUE, '*/5 * * * *', {}, { key: 'sweep' });
  await queue.boss.work(MAINTENANCE_QUEUE, async () => {
    await work();
  });
}
