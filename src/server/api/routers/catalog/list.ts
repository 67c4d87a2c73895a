import { z } from 'zod';
import { readProcedure } from '@/server/api/trpc';
import { CATEGORIES, listCatalog } from '@/server/services/catalog/catalog';
import { Entry, TAGS } from './catalog.schema';

export const list = readProcedure
  .meta({ openapi: { method: 'GET', path: '/node-catalog', tags: TAGS, summary: 'List node types, optionally of one category', protect: true } })
  .input(z.object({ category: z.enum(CATEGORIES).optional() }))
  .output(z.object({ nodes: z.array(Entry), categories: z.array(z.string()), total_count: z.number().int() }))
  .query(({ input }) => listCatalog(input.category));
