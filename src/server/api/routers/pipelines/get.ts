import { readProcedure } from '@/server/api/trpc';
import { getPipeline } from '@/server/services/pipelines/get-pipeline';
import { Pipeline, PipelineId } from './pipeline.schema';

export const get = readProcedure
  .meta({ openapi: { method: 'GET', path: '/pipelines/{id}', tags: ['Pipelines'], summary: 'Get a pipeline with its definition', protect: true }, errors: ['PIPELINE_NOT_FOUND'] })
  .input(PipelineId)
  .output(Pipeline)
  .query(({ ctx, input }) => getPipeline(ctx, input.id));
