import { and, eq, sql } from 'drizzle-orm';
import { pipelines } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { ServiceContext } from '../context';
import { findPipelineRow, notFound, ownPipeline } from './find';
import { toPipeline, type Pipeline } from './pipeline-views';
import { syncTriggers } from './triggers';
import { validatePipelineDefinition } from './validate-definition';

/**
 * deploy: active → deployed (available for real executions and schedules); undeploy: deployed → active.
 * Both are idempotent: deploying a deployed pipeline leaves it deployed. Deploy refuses a pipeline the
 * validator finds problems in (400 PIPELINE_INVALID with the findings), and deploys exactly the version
 * it checked; it starts the pipeline's trigger listening (a schedule is registered); undeploy stops it.
 */
export async function setDeployed(ctx: ServiceContext, id: string, deployed: boolean): Promise<Pipeline> {
  let where = ownPipeline(ctx, id);
  if (deployed) {
    const current = await findPipelineRow(ctx, id);
    const report = validatePipelineDefinition(current.definition);
    if (!report.valid) {
      throw new AppError('PIPELINE_INVALID', `Pipeline ${id} cannot be deployed: ${report.errors.length} problem(s) to fix first.`, report.errors);
    }
    where = and(where, eq(pipelines.version, current.version))!;
  }
  const [row] = await ctx.db
    .update(pipelines)
    .set(
      deployed
        ? { status: 'deployed', deployedAt: sql`coalesce(${pipelines.deployedAt}, now())` }
        : { status: 'active', deployedAt: null },
    )
    .where(where)
    .returning();
  if (!row) {
    if (!deployed) throw notFound(id);
    await findPipelineRow(ctx, id); // throws PIPELINE_NOT_FOUND when it was deleted meanwhile
    throw new AppError('VERSION_CONFLICT', `Pipeline ${id} changed while it was being deployed: deploy it again.`);
  }
  try {
    await syncTriggers(ctx.queue?.triggers, row);
  } catch (e) {
    if (!deployed) throw e;
    // a trigger that cannot start (its port taken, no port set) leaves the pipeline as it was: not deployed
    const [undone] = await ctx.db.update(pipelines).set({ status: 'active', deployedAt: null }).where(ownPipeline(ctx, id)).returning();
    if (undone) await syncTriggers(ctx.queue?.triggers, undone).catch(() => undefined);
    throw e;
  }
  return toPipeline(row);
}
