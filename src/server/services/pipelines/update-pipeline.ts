import { and, eq, sql } from 'drizzle-orm';
import { pipelines, pipelineVersions } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { PipelineDefinition } from '@/shared/pipeline';
import type { ServiceContext } from '../context';
import { actor } from './create-pipeline';
import { findPipelineRow, ownPipeline } from './find';
import { syncSchedule } from './schedules';
import { toPipeline, type Pipeline } from './shape';

export interface UpdateInput {
  id: string;
  name?: string;
  description?: string;
  definition?: PipelineDefinition;
  /** When given, the update applies only if the pipeline is still at this version (no lost updates). */
  expected_version?: number;
}

/** Every update bumps `version` and stores an immutable snapshot of the result, atomically. */
export async function updatePipeline(ctx: ServiceContext, input: UpdateInput): Promise<Pipeline> {
  const where = ownPipeline(ctx, input.id);
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(pipelines)
      .set({
        ...(input.name !== undefined && { name: input.name }),
        ...(input.description !== undefined && { description: input.description }),
        ...(input.definition !== undefined && { definition: input.definition }),
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
    await tx.insert(pipelineVersions).values({
      pipelineId: row.id,
      version: row.version,
      name: row.name,
      description: row.description,
      definition: row.definition,
      createdBy: actor(ctx),
    });
    return row;
  }).then(async (row) => {
    await syncSchedule(ctx.queue, row); // a deployed pipeline's new cron takes effect at once
    return toPipeline(row);
  });
}
