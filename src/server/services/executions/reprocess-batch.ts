import { and, desc, eq } from 'drizzle-orm';
import { getNodeType } from '@/engine/nodes';
import { planOf } from '@/engine/plan';
import type { Db } from '@/server/db/client';
import { executions, reprocessItems, reprocessJobs } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { errorForLog, logger } from '@/server/logger';
import type { ServiceContext, ServiceHost } from '../context';
import { acquireOrgSlot } from './org-slots';
import { retryExecution } from './retry';
import { loadDefinition } from './runnable-pipeline';

/** Retries of one organization's bulk reprocesses running at once, in all processes: 20 of its 100 runs, the rest left to live traffic. */
export const REPROCESS_SLOTS = 20;
/** Retries one batch runs at once. */
const BATCH_CONCURRENCY = 5;
/** How long a retry waits for a free slot (of the 20 above, or of the organization's 100 runs) before it is reported failed. */
const WAIT_MS = 10 * 60_000;

type Item = { executionId: string };

/**
 * One batch of a bulk reprocess: each of its runs not yet retried is retried from its failed node on its recorded
 * inputs, as the caller who asked (retry.ts: the new run is linked by retry_of and sends its original's idempotency
 * keys). A run that cannot be retried (payloads not kept, pipeline undeployed …) is skipped with the code saying why.
 */
export async function runReprocessBatch({ db, host }: { db: Db; host: ServiceHost }, job: { jobId: string; batch: number }): Promise<void> {
  const [owner] = await db.select().from(reprocessJobs).where(eq(reprocessJobs.id, job.jobId));
  if (!owner) return; // the organization was deleted meanwhile
  const items = await db
    .select({ executionId: reprocessItems.executionId })
    .from(reprocessItems)
    .where(and(eq(reprocessItems.jobId, job.jobId), eq(reprocessItems.batch, job.batch), eq(reprocessItems.state, 'pending')));
  const ctx: ServiceContext = {
    db,
    host,
    channel: 'api',
    principal: {
      kind: owner.actorKind,
      orgId: owner.orgId,
      scopes: ['execute'],
      ...(owner.actorKind === 'api-key' ? { keyId: owner.actorId ?? undefined } : { userId: owner.actorId ?? undefined }),
    },
  };
  const queue = [...items];
  const workers = Array.from({ length: Math.min(BATCH_CONCURRENCY, queue.length) }, async () => {
    for (let item = queue.shift(); item; item = queue.shift()) await reprocessOne(ctx, job.jobId, item);
  });
  await Promise.all(workers);
}

async function reprocessOne(ctx: ServiceContext, jobId: string, item: Item): Promise<void> {
  const { db } = ctx;
  const mark = (set: Partial<typeof reprocessItems.$inferInsert>) =>
    db
      .update(reprocessItems)
      .set(set)
      .where(and(eq(reprocessItems.jobId, jobId), eq(reprocessItems.executionId, item.executionId)));
  // a retry there already (an earlier delivery of this batch got this far, or someone retried it by hand): that one counts
  const [existing] = await db
    .select({ id: executions.id })
    .from(executions)
    .where(eq(executions.retryOf, item.executionId))
    .orderBy(desc(executions.createdAt))
    .limit(1);
  if (existing) return void (await mark({ state: 'started', retryId: existing.id }));
  const signal = AbortSignal.timeout(WAIT_MS);
  const release = await acquireOrgSlot(db, ctx.principal.orgId, 'reprocess', REPROCESS_SLOTS, { signal, waitUntil: Date.now() + WAIT_MS });
  if (!release) return void (await mark({ state: 'failed', errorCode: 'CONCURRENCY_LIMIT', errorMessage: 'No reprocessing slot came free in 10 minutes.' }));
  try {
    const nodeId = await failedNodeOf(ctx, item.executionId);
    for (;;) {
      try {
        const result = await retryExecution(ctx, { execution_id: item.executionId, node_id: nodeId });
        return void (await mark({ state: 'started', retryId: result.execution_id }));
      } catch (e) {
        // the organization's 100 runs are all taken (live traffic): wait for one, as a queued run would
        if (e instanceof AppError && e.code === 'CONCURRENCY_LIMIT' && !signal.aborted) {
          await new Promise((resolve) => setTimeout(resolve, 500));
          continue;
        }
        throw e;
      }
    }
  } catch (e) {
    if (e instanceof AppError) {
      const state = e.code === 'CONCURRENCY_LIMIT' ? 'failed' : 'skipped';
      return void (await mark({ state, errorCode: e.code, errorMessage: e.message }));
    }
    logger.error('a run of a bulk reprocess could not be retried', { executionId: item.executionId, error: errorForLog(e) });
    await mark({ state: 'failed', errorCode: 'INTERNAL', errorMessage: 'The retry could not be run or stored.' });
  } finally {
    await release();
  }
}

/** The node the run failed at; a run that failed outside any node (given up) is retried from its trigger. */
async function failedNodeOf(ctx: ServiceContext, executionId: string): Promise<string> {
  const [row] = await ctx.db
    .select({ error: executions.error, pipelineId: executions.pipelineId, version: executions.pipelineVersion })
    .from(executions)
    .where(and(eq(executions.id, executionId), eq(executions.orgId, ctx.principal.orgId)));
  if (!row) throw new AppError('EXECUTION_NOT_FOUND', `Execution ${executionId} no longer exists (removed by the retention settings).`);
  if (row.error?.node_id) return row.error.node_id;
  const { graph } = planOf(await loadDefinition(ctx.db, row.pipelineId, row.version), getNodeType);
  const trigger = [...graph.nodes.values()].find((n) => n.type?.trigger);
  if (!trigger) throw new AppError('NODE_NOT_FOUND', `Execution ${executionId} failed outside any node and its pipeline has no trigger to retry from.`);
  return trigger.def.id;
}
