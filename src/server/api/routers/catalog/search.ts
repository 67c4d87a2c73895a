import { z } from 'zod';
import { readProcedure } from '@/server/api/trpc';
import { searchCatalog } from '@/server/services/catalog/catalog';
import { Entry, TAGS } from './catalog.schema';

export const search = readProcedure
  .meta({ openapi: { method: 'GET', path: '/node-catalog/search/{query}', tags: TAGS, summary: 'Search node types by name, description and keywords', protect: true } })
  .input(z.object({ query: z.string().min(1).max(200) }))
  .output(z.object({ nodes: z.array(Entry), total_count: z.number().int(), query: z.string() }))
  .query(({ input }) => searchCatalog(decodeURIComponent(input.query)));
