import { pipelines } from '@/server/db/schema';
import type { PipelineDefinition } from '@/shared/pipeline';
import type { ServiceContext } from '../context';
import { toPipeline, type Pipeline } from './pipeline-views';
import { saveSnapshot } from './versions';

export interface CreateInput {
  name: string;
  description: string;
  definition: PipelineDefinition;
}

/** A new pipeline starts `active` at version 1, with its first snapshot written in the same transaction. */
export async function createPipeline(ctx: ServiceContext, input: CreateInput): Promise<Pipeline> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(pipelines)
      .values({ orgId: ctx.principal.orgId, name: input.name, description: input.description, definition: input.definition })
      .returning();
    if (!row) throw new Error('insert returned nothing');
    await saveSnapshot(tx, ctx, row);
    return toPipeline(row);
  });
}
