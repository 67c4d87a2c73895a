import { z } from 'zod';
import { readProcedure } from '@/server/api/trpc';
import { getVersion, listVersions } from '@/server/services/pipelines/versions';
import { Paging, PipelineId, PipelineVersion, VersionList } from './pipeline.schema';

export const versions = readProcedure
  .meta({
    openapi: { method: 'GET', path: '/pipelines/{id}/versions', tags: ['Pipelines'], summary: 'List the versions of a pipeline, newest first', protect: true },
    errors: ['PIPELINE_NOT_FOUND'],
  })
  .input(PipelineId.extend({ limit: Paging.limit.default(100), offset: Paging.offset }))
  .output(VersionList)
  .query(({ ctx, input }) => listVersions(ctx, input));

export const version = readProcedure
  .meta({
    openapi: { method: 'GET', path: '/pipelines/{id}/versions/{n}', tags: ['Pipelines'], summary: 'Get one immutable version snapshot', protect: true },
    errors: ['PIPELINE_NOT_FOUND', 'PIPELINE_VERSION_NOT_FOUND'],
  })
  .input(PipelineId.extend({ n: z.coerce.number().int().min(1).describe('Version number') }))
  .output(PipelineVersion)
  .query(({ ctx, input }) => getVersion(ctx, { id: input.id, version: input.n }));
