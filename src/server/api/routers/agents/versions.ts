import { readProcedure, writeProcedure } from '@/server/api/trpc';
import { createVersion, listVersions } from '@/server/services/agents/versions';
import { NOT_FOUND } from './errors';
import * as S from './agent.schema';

export const versions = readProcedure
  .meta({
    openapi: { method: 'GET', path: '/agents/{id}/versions', tags: S.TAGS, summary: 'Version snapshots, newest first', protect: true },
    errors: [...NOT_FOUND],
  })
  .input(S.AgentId)
  .output(S.VersionList)
  .query(({ ctx, input }) => listVersions(ctx, input.id));

export const snapshot = writeProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/agents/{id}/versions',
      tags: S.TAGS,
      summary: "Snapshot the agent's whole configuration as a new version",
      protect: true,
    },
    successStatus: 201,
    errors: [...NOT_FOUND],
  })
  .input(S.CreateVersionInput)
  .output(S.Version)
  .mutation(({ ctx, input }) => createVersion(ctx, input.id, input.note));
