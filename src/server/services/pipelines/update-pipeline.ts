import { and, desc, eq, sql } from 'drizzle-orm';
import { pipelines, pipelineVersions } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { DataSettingsOverride } from '@/shared/data-settings';
import type { PipelineDefinition } from '@/shared/pipeline';
import type { ServiceContext } from '../context';
import { restoreHeaderSecrets } from './header-secrets';
import { saveSnapshot } from './versions';
import { findPipelineRow, notFound, ownPipeline } from './find';
import { mergeOverrideSql } from '../orgs/data-settings';
import { toPipeline, type Pipeline } from './pipeline-views';

export interface UpdateInput {
  id: string;
  name?: string;
  description?: string;
  definition?: PipelineDefinition;
  /** When given, the update applies only if the pipeline is still at this version (no lost updates). */
  expected_version?: number;
  /** A change of its data settings: not part of the definition, so alone it makes no new version. */
  data_settings?: DataSettingsOverride;
}

/**
 * Every update bumps `version` and stores an immutable snapshot of the result, atomically. A save changes nothing
 * that runs: production runs, listeners and schedules keep the deployed version until the next deploy.
 */
export async function updatePipeline(ctx: ServiceContext, input: UpdateInput): Promise<Pipeline> {
  const where = ownPipeline(ctx, input.id);
  const settings = input.data_settings && { dataSettings: mergeOverrideSql(pipelines.dataSettings, input.data_settings) };
  if (settings && input.name === undefined && input.description === undefined && input.definition === undefined) {
    // what runs keep is not the pipeline's definition: no version, no snapshot (applies from the next run)
    const [row] = await ctx.db.update(pipelines).set(settings).where(where).returning();
    if (!row) throw notFound(input.id);
    return toPipeline(row);
  }
  return ctx.db
    .transaction(async (tx) => {
      // credential headers come back masked as GET showed them: they keep their stored values
      if (input.definition && JSON.stringify(input.definition).includes('••••')) {
        const earlier = await tx
          .select({ definition: pipelineVersions.definition })
          .from(pipelineVersions)
          .innerJoin(pipelines, eq(pipelines.id, pipelineVersions.pipelineId))
          .where(where)
          .orderBy(desc(pipelineVersions.version))
          .limit(50);
        input = {
          ...input,
          definition: restoreHeaderSecrets(
            input.definition,
            earlier.map((e) => e.definition),
          ),
        };
      }
      const [row] = await tx
        .update(pipelines)
        .set({
          ...(input.name !== undefined && { name: input.name }),
          ...(input.description !== undefined && { description: input.description }),
          ...(input.definition !== undefined && { definition: input.definition }),
          ...settings,
          version: sql`${pipelines.version} + 1`,
          updatedAt: sql`now()`,
        })
        .where(input.expected_version === undefined ? where : and(where, eq(pipelines.version, input.expected_version)))
        .returning();
      if (!row) {
        const current = await findPipelineRow({ ...ctx, db: tx }, input.id); // throws PIPELINE_NOT_FOUND
        throw new AppError(
          'VERSION_CONFLICT',
          `Pipeline ${input.id} is at version ${current.version}, not ${input.expected_version}: reload it and apply your change again.`,
        );
      }
      await saveSnapshot(tx, ctx, row);
      return row;
    })
    .then(toPipeline); // nothing that runs changes: a deployed pipeline runs (and listens as) its deployed version until the next deploy
}
