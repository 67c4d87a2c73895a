import { pipelines, pipelineVersions } from '@/server/db/schema';
import type { PipelineDefinition } from '@/shared/pipeline';
import type { ServiceContext } from '../context';
import { toPipeline, type Pipeline } from './shape';

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
    await tx.insert(pipelineVersions).values({
      pipelineId: row.id,
      version: row.version,
      name: row.name,
      description: row.description,
      definition: row.definition,
      createdBy: actor(ctx),
    });
    return toPipeline(row);
  });
}

/** Who made a change, as recorded on version snapshots. */
export function actor(ctx: ServiceContext): string {
  const p = ctx.principal;
  return p.kind === 'api-key' ? `api-key:${p.keyId}` : `user:${p.userId}`;
}
