import { z } from 'zod';
import { writeProcedure } from '@/server/api/trpc';
import { applySuggestion } from '@/server/services/copilot/suggestions';
import { TAGS, Report, Suggestion } from './copilot.schema';
import { DOCS } from './docs';
import { limited } from './limited';

export const apply = limited(writeProcedure)
  .meta({
    openapi: {
      method: 'POST',
      path: '/copilot/suggestions/{id}/apply',
      tags: TAGS,
      summary: DOCS['apply-suggestion'].summary,
      description: DOCS['apply-suggestion'].description,
      protect: true,
    },
    errors: ['SUGGESTION_NOT_FOUND', 'SUGGESTION_STALE', 'SUGGESTION_APPLIED', 'SUGGESTION_NOT_APPLICABLE'],
  })
  .input(z.object({ id: z.string() }))
  .output(z.object({ suggestion: Suggestion, pipeline_version: z.number().int(), changes: z.array(z.string()), validation: Report }))
  .mutation(({ ctx, input }) => applySuggestion(ctx, input.id));
