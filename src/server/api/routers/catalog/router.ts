import { z } from 'zod';
import { readProcedure, router } from '@/server/api/trpc';
import { CATEGORIES, getCatalogEntry, listCatalog, searchCatalog } from '@/server/services/catalog/catalog';

const Port = z.object({ name: z.string(), type: z.string(), description: z.string().optional(), optional: z.boolean().optional() });
const Entry = z.object({
  id: z.string(),
  name: z.string(),
  category: z.enum(CATEGORIES),
  description: z.string(),
  version: z.string(),
  keywords: z.array(z.string()),
  side_effect: z.enum(['none', 'read', 'write']),
  trigger: z.boolean(),
  inputs: z.array(Port),
  outputs: z.array(Port),
  config_schema: z.record(z.string(), z.unknown()),
  documentation: z.string().optional(),
});

export const catalogRouter = router({
  list: readProcedure
    .meta({ openapi: { method: 'GET', path: '/node-catalog', tags: ['Node catalog'], summary: 'List node types, optionally of one category', protect: true } })
    .input(z.object({ category: z.enum(CATEGORIES).optional() }))
    .output(z.object({ nodes: z.array(Entry), categories: z.array(z.string()), total_count: z.number().int() }))
    .query(({ input }) => listCatalog(input.category)),
  search: readProcedure
    .meta({ openapi: { method: 'GET', path: '/node-catalog/search/{query}', tags: ['Node catalog'], summary: 'Search node types by name, description and keywords', protect: true } })
    .input(z.object({ query: z.string().min(1).max(200) }))
    .output(z.object({ nodes: z.array(Entry), total_count: z.number().int(), query: z.string() }))
    .query(({ input }) => searchCatalog(decodeURIComponent(input.query))),
  get: readProcedure
    .meta({ openapi: { method: 'GET', path: '/node-catalog/{nodeId}', tags: ['Node catalog'], summary: 'Full schema of one node type: config, ports, documentation', protect: true } })
    .input(z.object({ nodeId: z.string() }))
    .output(Entry)
    .query(({ input }) => getCatalogEntry(input.nodeId)),
});
