import { z } from 'zod';
import { readProcedure } from '@/server/api/trpc';
import { getCatalogEntry } from '@/server/services/catalog/catalog';
import { Entry, TAGS } from './catalog.schema';

export const get = readProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/node-catalog/{nodeId}',
      tags: TAGS,
      summary: 'Full schema of one node type: config, ports, documentation',
      protect: true,
    },
    errors: ['NODE_TYPE_NOT_FOUND'],
  })
  .input(z.object({ nodeId: z.string() }))
  .output(Entry)
  .query(({ input }) => getCatalogEntry(input.nodeId));
