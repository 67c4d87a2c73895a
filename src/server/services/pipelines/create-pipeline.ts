import { pipelines } from '@/server/db/schema';
import type { DataSettingsOverride } from '@/shared/data-settings';
import type { PipelineDefinition } from '@/shared/pipeline';
import { mergeOverride } from '../orgs/data-settings';
import type { ServiceContext } from '../context';
import { toPipeline, type Pipeline } from './pipeline-views';
import { saveSnapshot } from './versions';

export interface CreateInput {
  name: string;
  description: string;
  definition: PipelineDefinition;
  /** Its own data settings (null values and absent keys inherit the organization's). */
  data_settings?: DataSettingsOverride;
}

/** A new pipeline starts `active` at version 1, with its first snapshot written in the same transaction. */
export async function createPipeline(ctx: ServiceContext, input: CreateInput): Promise<Pipeline> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(pipelines)
      .values({
        orgId: ctx.principal.orgId,
        name: input.name,
        description: input.description,
        definition: input.definition,
        dataSettings: mergeOverride({}, input.data_settings ?? {}),
      })
      .returning();
    if (!row) throw new Error('insert returned nothing');
    await saveSnapshot(tx, ctx, row);
    return toPipeline(row);
  });
}
