import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { executionNodes, executions, pipelineAlerts, pipelines } from '@/server/db/schema';
import { env } from '@/env';
import { errorForLog, logger } from '@/server/logger';
import type { ErrorEvent } from '@/shared/error-event';
import { startErrorPipeline, type RunExecution } from './start-error-pipeline';
import { countFailure } from './throttle';

/** Alerts under way in this process (tests and a graceful stop wait for them). */
const pending = new Set<Promise<void>>();

/**
 * The run path's one call when an execution ends failed (run-execution.ts): if it was a production run of a pipeline
 * that names an error pipeline, that pipeline is started with an `error-event`, at most once per pipeline and error
 * code per alert window (throttle.ts). Never for test runs, step sessions or runs of an error pipeline itself (no
 * loops). Never throws and never delays the failed run: it runs after it, and a failure here is only logged.
 */
export function alertOnFailure(db: Db, executionId: string, run: RunExecution): void {
  const p = alert(db, executionId, run)
    .catch((e: unknown) => logger.error('alert for a failed run not sent', { executionId, error: errorForLog(e) }))
    .finally(() => pending.delete(p));
  pending.add(p);
}

/** Resolves when the alerts started so far have been handled. */
export async function alertsSettled(): Promise<void> {
  while (pending.size) await Promise.all([...pending]);
}

async function alert(db: Db, executionId: string, run: RunExecution): Promise<void> {
  const [row] = await db
    .select({
      orgId: executions.orgId,
      pipelineId: executions.pipelineId,
      version: executions.pipelineVersion,
      status: executions.status,
      testMode: executions.testMode,
      trigger: executions.trigger,
      error: executions.error,
      finishedAt: executions.finishedAt,
      name: pipelines.name,
      errorPipelineId: pipelineAlerts.errorPipelineId,
      windowSeconds: pipelineAlerts.windowSeconds,
    })
    .from(executions)
    .innerJoin(pipelines, eq(pipelines.id, executions.pipelineId))
    .innerJoin(pipelineAlerts, eq(pipelineAlerts.pipelineId, executions.pipelineId))
    .where(eq(executions.id, executionId));
  if (!row?.errorPipelineId || row.status !== 'failed' || row.testMode || row.trigger === 'step' || row.trigger === 'error') return;
  if (row.errorPipelineId === row.pipelineId) return;
  const code = row.error?.code ?? 'UNKNOWN';
  const { send, heldBack } = await countFailure(db, { orgId: row.orgId, pipelineId: row.pipelineId, code, windowSeconds: row.windowSeconds });
  if (!send) return;
  const nodeId = row.error?.node_id ?? null;
  const [node] = nodeId
    ? await db
        .select({ type: executionNodes.nodeType, attempts: executionNodes.attempts })
        .from(executionNodes)
        .where(and(eq(executionNodes.executionId, executionId), eq(executionNodes.nodeId, nodeId)))
        .orderBy(desc(executionNodes.attempts))
        .limit(1)
    : [];
  const event: ErrorEvent = {
    pipeline: { id: row.pipelineId, name: row.name },
    version: row.version,
    execution: { id: executionId, url: `${env.APP_URL ?? `http://localhost:${env.PORT}`}/executions/${executionId}` },
    node: nodeId ? { id: nodeId, type: node?.type ?? 'unknown' } : null,
    error: { code, message: row.error?.message ?? 'The run failed.' },
    attempt: Math.max(1, node?.attempts ?? 1),
    trigger: row.trigger,
    failed_at: (row.finishedAt ?? new Date()).toISOString(),
    held_back: heldBack,
  };
  await startErrorPipeline(db, row.orgId, row.errorPipelineId, event, run);
}
