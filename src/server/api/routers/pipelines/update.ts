import { writeProcedure } from '@/server/api/trpc';
import { updatePipeline } from '@/server/services/pipelines/update-pipeline';
import { Pipeline, UpdatePipelineInput } from './pipeline.schema';

export const update = writeProcedure
  .meta({ audit: { action: 'pipeline.save', detail: (_i, o) => ({ version: Number(o?.version) }) } })
  .meta({
    openapi: {
      method: 'PUT',
      path: '/pipelines/{id}',
      tags: ['Pipelines'],
      summary: 'Update a pipeline (bumps version, keeps a snapshot)',
      protect: true,
    },
    errors: ['PIPELINE_NOT_FOUND', 'VERSION_CONFLICT'],
  })
  .input(UpdatePipelineInput)
  .output(Pipeline)
  .mutation(({ ctx, input }) => updatePipeline(ctx, input));
