import { z } from 'zod';
import { writeProcedure } from '@/server/api/trpc';
import { deletePipeline } from '@/server/services/pipelines/delete-pipeline';
import { PipelineId } from './pipeline.schema';

export const remove = writeProcedure
  .meta({ audit: { action: 'pipeline.delete' } })
  .meta({
    openapi: { method: 'DELETE', path: '/pipelines/{id}', tags: ['Pipelines'], summary: 'Delete an undeployed pipeline', protect: true },
    errors: ['PIPELINE_NOT_FOUND', 'PIPELINE_DEPLOYED'],
    successStatus: 204,
  })
  .input(PipelineId)
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    await deletePipeline(ctx, input.id);
  });
