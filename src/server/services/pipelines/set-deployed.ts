import { and, eq, sql } from 'drizzle-orm';
import { pipelines } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { ServiceContext } from '../context';
import { findPipelineRow, notFound, ownPipeline } from './find';
import { toPipeline, type Pipeline } from './pipeline-views';
import { syncTriggers } from './triggers';
import { validatePipelineDefinition } from './validate-definition';

/**
 * deploy publishes the latest saved version: production runs (the API, webhooks, schedules, listeners) use it
 * until the next deploy, and the pipeline is `deployed`; undeploy stops them all (`active`, no deployed version).
 * Deploying again publishes the version saved since (a redeploy), swapping the trigger over to it: a listener on
 * the same port keeps its connections, one on another port opens before the old one closes. Deploy refuses a
 * version the validator finds problems in (400 PIPELINE_INVALID with every finding) and publishes exactly the
 * version it checked; a deployed pipeline stays on the version it ran. A trigger that cannot start (its port
 * taken) leaves the pipeline as it was: on its earlier deployed version, or not deployed.
 */
export async function setDeployed(ctx: ServiceContext, id: string, deployed: boolean): Promise<Pipeline> {
  if (!deployed) {
    const [row] = await ctx.db.update(pipelines).set({ status: 'active', deployedVersion: null, deployedAt: null }).where(ownPipeline(ctx, id)).returning();
    if (!row) throw notFound(id);
    await syncTriggers(ctx.db, ctx.queue?.triggers, row);
    return toPipeline(row);
  }
  const current = await findPipelineRow(ctx, id);
  const report = validatePipelineDefinition(current.definition);
  if (!report.valid) {
    const live = current.status === 'deployed' && current.deployedVersion !== null ? ` Version ${current.deployedVersion} stays live.` : '';
    throw new AppError(
      'PIPELINE_INVALID',
      `Pipeline ${id} version ${current.version} cannot be deployed: ${report.errors.length} problem(s) to fix first.${live}`,
      report.errors,
    );
  }
  const previous = current.status === 'deployed' ? { deployedVersion: current.deployedVersion, deployedAt: current.deployedAt } : null;
  const republished = sql`${pipelines.status} = 'deployed' and ${pipelines.deployedVersion} = ${pipelines.version}`;
  const [row] = await ctx.db
    .update(pipelines)
    // deployed_at: when the live version was published (deploying it again changes nothing)
    .set({
      status: 'deployed',
      deployedVersion: current.version,
      deployedAt: sql`case when ${republished} then coalesce(${pipelines.deployedAt}, now()) else now() end`,
    })
    .where(and(ownPipeline(ctx, id), eq(pipelines.version, current.version)))
    .returning();
  if (!row) {
    await findPipelineRow(ctx, id); // throws PIPELINE_NOT_FOUND when it was deleted meanwhile
    throw new AppError('VERSION_CONFLICT', `Pipeline ${id} changed while it was being deployed: deploy it again.`);
  }
  try {
    await syncTriggers(ctx.db, ctx.queue?.triggers, row);
  } catch (e) {
    // a trigger that cannot start (its port taken, no port set) leaves the pipeline as it was
    const [undone] = await ctx.db
      .update(pipelines)
      .set(previous?.deployedVersion != null ? { status: 'deployed', ...previous } : { status: 'active', deployedVersion: null, deployedAt: null })
      .where(and(ownPipeline(ctx, id), eq(pipelines.deployedVersion, current.version)))
      .returning();
    if (undone) await syncTriggers(ctx.db, ctx.queue?.triggers, undone).catch(() => undefined);
    throw e;
  }
  return toPipeline(row);
}
