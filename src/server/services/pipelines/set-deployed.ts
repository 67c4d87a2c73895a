import { sql } from 'drizzle-orm';
import { pipelines } from '@/server/db/schema';
import type { ServiceContext } from '../context';
import { notFound, ownPipeline } from './find';
import { syncSchedule } from './schedules';
import { toPipeline, type Pipeline } from './shape';

/**
 * deploy: active → deployed (available for real executions and schedules); undeploy: deployed → active.
 * Both are idempotent: deploying a deployed pipeline leaves it deployed. Deploy registers the pipeline's
 * schedule with pg-boss; undeploy removes it.
 */
export async function setDeployed(ctx: ServiceContext, id: string, deployed: boolean): Promise<Pipeline> {
  const [row] = await ctx.db
    .update(pipelines)
    .set(
      deployed
        ? { status: 'deployed', deployedAt: sql`coalesce(${pipelines.deployedAt}, now())` }
        : { status: 'active', deployedAt: null },
    )
    .where(ownPipeline(ctx, id))
    .returning();
  if (!row) throw notFound(id);
  await syncSchedule(ctx.queue, row);
  return toPipeline(row);
}
