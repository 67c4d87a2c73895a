import { z } from 'zod';
import { readProcedure } from '@/server/api/trpc';
import { AppError } from '@/server/errors';
import { searchCatalog } from '@/server/services/catalog/catalog';
import { Entry, TAGS } from './catalog.schema';

export const search = readProcedure
  .meta({
    openapi: { method: 'GET', path: '/node-catalog/search/{query}', tags: TAGS, summary: 'Search node types by name, description and keywords', protect: true },
  })
  .input(z.object({ query: z.string().min(1).max(200) }))
  .output(z.object({ nodes: z.array(Entry), total_count: z.number().int(), query: z.string() }))
  .query(({ input }) => searchCatalog(decoded(input.query)));

/** The path segment as typed (it arrives percent-encoded); broken encoding such as `%ff` is a bad request. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new AppError('VALIDATION_FAILED', `The search text "${segment}" is not valid percent-encoding (encode it as UTF-8, e.g. with encodeURIComponent).`);
  }
}
