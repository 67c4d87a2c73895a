import { writeProcedure } from '@/server/api/trpc';
import { createPipeline } from '@/server/services/pipelines/create-pipeline';
import { CreatePipelineInput, Pipeline } from './pipeline.schema';

export const create = writeProcedure
  .meta({ audit: { action: 'pipeline.create' } })
  .meta({
    openapi: { method: 'POST', path: '/pipelines', tags: ['Pipelines'], summary: 'Create a pipeline', protect: true },
    successStatus: 201,
  })
  .input(CreatePipelineInput)
  .output(Pipeline)
  .mutation(async ({ ctx, input }) => {
    const pipeline = await createPipeline(ctx, input);
    ctx.response.headers.Location = `/api/pipelines/${pipeline.id}`;
    return pipeline;
  });
