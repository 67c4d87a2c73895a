import { and, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { executions } from '@/server/db/schema';
import { AppError } from '@/server/errors';

export const MAX_CONCURRENT_EXECUTIONS = 100;

export interface NewExecution {
  orgId: string;
  pipelineId: string;
  pipelineVersion: number;
  trigger: string;
  testMode: boolean;
  inputs: Record<string, unknown>;
  retryOf?: string | null;
  status: 'queued' | 'running';
}

/**
 * Writes the execution row if the organization has a free slot (at most 100 queued or running, step sessions aside). The
 * per-organization advisory lock makes count-and-insert atomic across processes. `then` runs in the same
 * transaction (the async path enqueues its job there, so row and job exist together or not at all).
 */
export async function startExecution<T = void>(
  db: Db,
  e: NewExecution,
  then?: (tx: Db, executionId: string) => Promise<T>,
): Promise<{ id: string; startedAt: Date | null; extra: T | undefined }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`executions:${e.orgId}`}))`);
    const [active] = await tx
      .select({ n: count() })
      .from(executions)
      // step sessions wait on a person, not on the machine: they do not hold a slot
      .where(and(eq(executions.orgId, e.orgId), inArray(executions.status, ['queued', 'running']), ne(executions.trigger, 'step')));
    if ((active?.n ?? 0) >= MAX_CONCURRENT_EXECUTIONS) {
      throw new AppError('CONCURRENCY_LIMIT', `At most ${MAX_CONCURRENT_EXECUTIONS} executions may run at once per organization; wait for some to finish.`);
    }
    const startedAt = e.status === 'running' ? new Date() : null;
    const [row] = await tx
      .insert(executions)
      .values({
        orgId: e.orgId,
        pipelineId: e.pipelineId,
        pipelineVersion: e.pipelineVersion,
        status: e.status,
        trigger: e.trigger,
        testMode: e.testMode,
        retryOf: e.retryOf ?? null,
        inputs: e.inputs,
        startedAt,
      })
      .returning({ id: executions.id });
    const extra = then ? await then(tx as unknown as Db, row!.id) : undefined;
    return { id: row!.id, startedAt, extra };
  });
}
