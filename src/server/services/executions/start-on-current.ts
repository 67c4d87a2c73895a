import { AppError } from '@/server/errors';
import type { Queue } from '@/server/queue/queue';
import type { ServiceContext } from '../context';
import { currentPipeline, lastSeenPipeline } from './runnable-pipeline';
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
  /** The async paths: the execution is put on this queue in its admission's transaction (see Queue.enqueueOne). */
  queue?: Queue;
}

/**
 * Starts an execution on the caller's pipeline as it is now: a real run on its deployed version, a test run on its
 * latest. Where this process has run the pipeline before, in one statement: on the version it saw then, if that is
 * still the one to run (the deployed one, or the latest) — see startIfCurrent. Otherwise, or when the pipeline changed, it is read, `refuse` throws what stops the run, and the
 * execution starts on the version read. With a queue, its job is written in the same transaction and the wake-up is
 * the queue's to address.
 */
export function startOnCurrent(ctx: ServiceContext, pipelineId: string, how: StartHow): Promise<{ pipeline: PlannedPipeline; started: Started }> {
  const queue = how.queue;
  if (!queue) return start(ctx, pipelineId, how);
  return queue.enqueueOne((notify) => {
    const execution = (p: PlannedPipeline) => {
      const e = how.execution(p);
      return e && { ...e, notify };
    };
    return start(ctx, pipelineId, { ...how, execution }, queue.enqueue);
  });
}

async function start(ctx: ServiceContext, pipelineId: string, how: StartHow, enqueue?: Queue['enqueue']) {
  const which = how.requireDeployed ? 'deployed' : 'latest';
  const seen = lastSeenPipeline(ctx, pipelineId, which);
  const guess = seen?.report.valid ? how.execution(seen) : undefined;
  const started = guess && (await startIfCurrent(ctx.db, guess, how.requireDeployed, enqueue));
  if (started) return { pipeline: seen!, started };
  const current = await currentPipeline(ctx, pipelineId, which);
  how.refuse(current);
  const execution = how.execution(current);
  if (!execution) throw new AppError('INTERNAL', `Pipeline ${pipelineId} passed its checks but gave no execution to start.`);
  return { pipeline: current, started: await startExecution(ctx.db, execution, enqueue) };
}
