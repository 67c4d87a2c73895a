import { logger } from '@/server/logger';
import { Dispatcher } from './dispatcher';
import type { SQL } from 'drizzle-orm';
import type { Successors } from '@/server/services/executions/run-execution';
import { EXECUTE_QUEUE, EXECUTE_RETRY_LIMIT, jobCompletion, type ExecuteJob, type Queue } from './queue';

/**
 * How a job's run may complete its job in its own last write: `statement` in that write, `done` once it committed. A run
 * this process claimed (no queue job: claims.ts) has `claimedBy` instead: its last write is conditioned on that claim
 * and releases it. `successors`: the runs another process holds after this one are taken by its last write, to run here.
 */
export interface InlineCompletion {
  statement?: SQL;
  claimedBy?: string;
  done(): void;
  successors?: Successors;
}

/** How often an idle process looks for work it was not woken for (jobs retried after a delay, or sent elsewhere without NOTIFY). */
const IDLE_POLL_SECONDS = 2;
/** See DispatcherOptions: under load, fetches at most every 10 ms, and completions gathered for up to 50 ms. */
const FETCH_GAP_MS = 10;
const COMPLETE_DELAY_MS = 50;

/**
 * Works the execution queue in this process, handing each job to `run` (see server/jobs.ts), `concurrency` at a
 * time (see Dispatcher). Jobs are fetched when one is queued — by this process after its own enqueue (`queue.wake()`,
 * or a job it took on in `queue.takeOne`), or on a NOTIFY on Postgres — when a slot frees, and at the idle poll.
 *
 * A job whose execution already finished (a redelivery after a crash between finishing and acknowledging)
 * runs nothing again; one that was interrupted resumes, keeping the nodes that had finished.
 */
export async function startWorkers(
  queue: Queue,
  concurrency: number,
  run: (executionId: string, opts: { firstDelivery: boolean; lastDelivery: boolean; completion: InlineCompletion }) => Promise<unknown>,
  idlePollSeconds = IDLE_POLL_SECONDS,
): Promise<void> {
  const dispatcher = new Dispatcher<ExecuteJob>(
    queue.boss,
    EXECUTE_QUEUE,
    (job, done, local) => {
      const { executionId } = job.data;
      const successors = queue.successors && {
        takeFor: queue.instanceId,
        taken: (ids: string[]) => queue.successors!.taken(executionId, ids),
        // its end is told to the other processes when it may concern them: it came from the queue, or was taken from one
        tell: !local || queue.successors.tookElsewhere(executionId),
      };
      return run(executionId, {
        firstDelivery: job.retryCount === 0,
        lastDelivery: job.retryCount >= EXECUTE_RETRY_LIMIT,
        completion: { ...(local ? { claimedBy: queue.instanceId } : { statement: jobCompletion(job) }), done, successors: successors ?? undefined },
      });
    },
    { slots: concurrency, idlePollSeconds, heartbeatSeconds: queue.heartbeatSeconds, fetchGapMs: FETCH_GAP_MS, completeDelayMs: COMPLETE_DELAY_MS },
  );
  await queue.work(dispatcher);
  logger.info(`working the ${EXECUTE_QUEUE} queue (${concurrency} at a time)`);
}
