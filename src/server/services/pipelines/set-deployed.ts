import { sql } from 'drizzle-orm';
import { pipelines } from '@/server/db/schema';
import type { ServiceContext } from '../context';
import { notFound, ownPipeline } from './find';
import { toPipeline, type Pipeline } from './shape';

/**
 * deploy: active → deployed (available for real executions and schedules); undeploy: deployed → active.
 * Both are idempotent: deploying a deployed pipeline leaves it deployed.
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
  return toPipeline(row);
}
