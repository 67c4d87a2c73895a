import { AppError } from '@/server/errors';
import type { Queue } from '@/server/queue/queue';
import type { ServiceContext } from '../context';
import { currentPipeline, lastSeenPipeline, type RunVersion } from './runnable-pipeline';
import { startExecution, startIfCurrent, type NewExecution, type Started } from './start-execution';

/** A pipeline version with its definition and plan. */
export type PlannedPipeline = NonNullable<ReturnType<typeof lastSeenPipeline>>;
/** The same as read now, with its status. */
export type CurrentPipeline = Awaited<ReturnType<typeof currentPipeline>>;

export interface StartHow {
  /**
   * A real (production) run: it needs the pipeline deployed and runs the deployed version; otherwise (test runs)
   * the latest saved version runs.
   */
  requireDeployed: boolean;
  /** The execution to start on `pipeline`, or undefined when its definition does not allow the run (`refuse` says why). */
  execution(pipeline: PlannedPipeline): NewExecution | undefined;
  /** Throws what refuses the run on the pipeline as read now, in the order a client meets them (its validity included). */
  refuse(pipeline: CurrentPipeline): void;
  /** The async paths: the execution is put on this queue in its admission's transaction (see Queue.takeOne). */
  queue?: Queue;
}

/**
 * Starts an execution on the caller's pipeline as it is now: a real run on its deployed version, a test run on its
 * latest. The whole route, in order:
 * 1. with a queue, whether this process takes the job itself (then the others are not woken for it: Queue.takeOne);
 * 2. the fast path — the version this process saw last, planned without a read and admitted in one statement if it
 *    is still the version to run (startIfCurrent); a valid plan only, so every refusal is said by the slow path;
 * 3. otherwise the pipeline is read as it is now, `refuse` throws what stops the run, and the execution is admitted on
 *    the version read (startExecution);
 * 4. the queue is told whether the job was committed.
 * With a queue, the job is written in the admission's transaction, under the execution's id.
 */
export async function startOnCurrent(ctx: ServiceContext, pipelineId: string, how: StartHow): Promise<{ pipeline: PlannedPipeline; started: Started }> {
  const which: RunVersion = how.requireDeployed ? 'deployed' : 'latest';
  const taken = how.queue?.takeOne();
  const enqueue = how.queue?.enqueue;
  const withWake = (e: NewExecution): NewExecution => (taken ? { ...e, notify: taken.notify } : e);
  try {
    const seen = lastSeenPipeline(ctx, pipelineId, which);
    const guess = seen?.report.valid ? how.execution(seen) : undefined;
    const fast = guess && (await startIfCurrent(ctx.db, withWake(guess), how.requireDeployed, enqueue));
    if (fast) {
      taken?.settle(true);
      return { pipeline: seen!, started: fast };
    }
    const current = await currentPipeline(ctx, pipelineId, which);
    how.refuse(current);
    const execution = how.execution(current);
    if (!execution) throw new AppError('INTERNAL', `Pipeline ${pipelineId} passed its checks but gave no execution to start.`);
    const started = await startExecution(ctx.db, withWake(execution), enqueue);
    taken?.settle(true);
    return { pipeline: current, started };
  } catch (e) {
    taken?.settle(false);
    throw e;
  }
}
