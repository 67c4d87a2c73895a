import { readProcedure } from '@/server/api/trpc';
import { getPipeline } from '@/server/services/pipelines/get-pipeline';
import { PipelineId, PipelineWithMetadata } from './pipeline.schema';

export const get = readProcedure
  .meta({
    openapi: { method: 'GET', path: '/pipelines/{id}', tags: ['Pipelines'], summary: 'Get a pipeline with its definition and metadata', protect: true },
    errors: ['PIPELINE_NOT_FOUND'],
  })
  .input(PipelineId)
  .output(PipelineWithMetadata)
  .query(({ ctx, input }) => getPipeline(ctx, input.id));
