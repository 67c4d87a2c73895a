import { count, desc, eq, sql } from 'drizzle-orm';
import { pipelines } from '@/server/db/schema';
import type { ServiceContext } from '../context';
import { toSummary, type PipelineSummary } from './pipeline-views';

export interface ListInput {
  limit: number;
  offset: number;
}

/** Newest first; items carry no definition. */
export async function listPipelines(ctx: ServiceContext, input: ListInput): Promise<{ pipelines: PipelineSummary[]; total_count: number }> {
  const mine = eq(pipelines.orgId, ctx.principal.orgId);
  const [rows, totals] = await Promise.all([
    ctx.db
      .select({
        id: pipelines.id,
        name: pipelines.name,
        description: pipelines.description,
        status: pipelines.status,
        version: pipelines.version,
        deployedVersion: pipelines.deployedVersion,
        deployedAt: pipelines.deployedAt,
        createdAt: pipelines.createdAt,
        updatedAt: pipelines.updatedAt,
        nodeCount: sql<number>`jsonb_array_length(${pipelines.definition}->'nodes')`.mapWith(Number),
      })
      .from(pipelines)
      .where(mine)
      .orderBy(desc(pipelines.createdAt), desc(pipelines.id))
      .limit(input.limit)
      .offset(input.offset),
    ctx.db.select({ n: count() }).from(pipelines).where(mine),
  ]);
  return { pipelines: rows.map(toSummary), total_count: totals[0]?.n ?? 0 };
}
