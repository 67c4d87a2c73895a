import { z } from 'zod';
import { readProcedure } from '@/server/api/trpc';
import { listPipelines } from '@/server/services/pipelines/list-pipelines';
import { Paging, PipelineList } from './pipeline.schema';

export const list = readProcedure
  .meta({ openapi: { method: 'GET', path: '/pipelines', tags: ['Pipelines'], summary: 'List pipelines (without definitions)', protect: true } })
  .input(z.object(Paging))
  .output(PipelineList)
  .query(({ ctx, input }) => listPipelines(ctx, input));
