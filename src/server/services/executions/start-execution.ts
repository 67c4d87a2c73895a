import { sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { rowsOf } from '@/server/db/rows';
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
 * Writes the execution row if the organization has a free slot (at most 100 queued or running, step
 * sessions aside): one call of the `start_execution` SQL function, which counts and inserts under a
 * per-organization advisory lock, so two processes cannot both admit the 100th. `then` runs in the same
 * transaction (the async path enqueues its job there, so row and job exist together or not at all).
 */
export async function startExecution<T = void>(
  db: Db,
  e: NewExecution,
  then?: (tx: Db, executionId: string) => Promise<T>,
): Promise<{ id: string; startedAt: Date | null; extra: T | undefined }> {
  const startedAt = e.status === 'running' ? new Date() : null;
  const admit = async (q: Db) => {
    const result = await q.execute(
      sql`select id from start_execution(${e.orgId}, ${e.pipelineId}, ${e.pipelineVersion}, ${e.status}, ${e.trigger}, ${e.testMode},
        ${e.retryOf ?? null}, ${JSON.stringify(e.inputs)}::jsonb, ${startedAt?.toISOString() ?? null}::timestamptz, ${MAX_CONCURRENT_EXECUTIONS})`,
    );
    const row = rowsOf<{ id: string }>(result)[0];
    if (!row) {
      throw new AppError('CONCURRENCY_LIMIT', `At most ${MAX_CONCURRENT_EXECUTIONS} executions may run at once per organization; wait for some to finish.`);
    }
    return row.id;
  };
  if (!then) return { id: await admit(db), startedAt, extra: undefined };
  return db.transaction(async (tx) => {
    const id = await admit(tx as unknown as Db);
    return { id, startedAt, extra: await then(tx as unknown as Db, id) };
  });
}
