import { and, eq } from 'drizzle-orm';
import { pipelines } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { isUuid, type ServiceContext } from '../context';

export function notFound(id: string): AppError {
  return new AppError('PIPELINE_NOT_FOUND', `Pipeline ${id} was not found.`);
}

/** Condition matching pipeline `id` of the caller's organization (another organization's is "not found"). */
export function ownPipeline(ctx: ServiceContext, id: string) {
  if (!isUuid(id)) throw notFound(id);
  return and(eq(pipelines.id, id), eq(pipelines.orgId, ctx.principal.orgId));
}

export async function findPipelineRow(ctx: ServiceContext, id: string) {
  const [row] = await ctx.db.select().from(pipelines).where(ownPipeline(ctx, id)).limit(1);
  if (!row) throw notFound(id);
  return row;
}
