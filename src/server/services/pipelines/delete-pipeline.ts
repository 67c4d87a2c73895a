import { and, eq } from 'drizzle-orm';
import { pipelines } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { ServiceContext } from '../context';
import { findPipelineRow, ownPipeline } from './find';

/** Deletes an undeployed pipeline and its versions; a deployed one must be undeployed first. */
export async function deletePipeline(ctx: ServiceContext, id: string): Promise<void> {
  const deleted = await ctx.db
    .delete(pipelines)
    .where(and(ownPipeline(ctx, id), eq(pipelines.status, 'active')))
    .returning({ id: pipelines.id });
  if (deleted.length > 0) return;
  await findPipelineRow(ctx, id); // throws PIPELINE_NOT_FOUND
  throw new AppError('PIPELINE_DEPLOYED', `Pipeline ${id} is deployed: undeploy it before deleting it.`);
}
