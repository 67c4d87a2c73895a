import { writeProcedure } from '@/server/api/trpc';
import { setDeployed } from '@/server/services/pipelines/set-deployed';
import { Pipeline, PipelineId } from './pipeline.schema';

export const deploy = writeProcedure
  .meta({ audit: { action: 'pipeline.deploy', detail: (_i, o) => ({ version: Number(o?.version) }) } })
  .meta({
    openapi: {
      method: 'POST',
      path: '/pipelines/{id}/deploy',
      tags: ['Pipelines'],
      summary: 'Deploy (publish) the latest saved version: production runs use it until the next deploy',
      protect: true,
    },
    errors: ['PIPELINE_NOT_FOUND', 'PIPELINE_INVALID', 'VERSION_CONFLICT', 'PORT_IN_USE', 'LISTENER_FAILED'],
  })
  .input(PipelineId)
  .output(Pipeline)
  .mutation(({ ctx, input }) => setDeployed(ctx, input.id, true));

export const undeploy = writeProcedure
  .meta({ audit: { action: 'pipeline.undeploy' } })
  .meta({
    openapi: {
      method: 'POST',
      path: '/pipelines/{id}/undeploy',
      tags: ['Pipelines'],
      summary: 'Undeploy a pipeline (stops its production runs: triggers, listeners and schedules)',
      protect: true,
    },
    errors: ['PIPELINE_NOT_FOUND'],
  })
  .input(PipelineId)
  .output(Pipeline)
  .mutation(({ ctx, input }) => setDeployed(ctx, input.id, false));
