import { executeProcedure } from '@/server/api/trpc';
import { generateCode } from '@/server/services/copilot/generate-code';
import { TAGS, GenerateCodeInput, GeneratedCode } from './copilot.schema';
import { DOCS } from './docs';
import { limited } from './limited';

export const code = limited(executeProcedure)
  .meta({
    openapi: {
      method: 'POST',
      path: '/copilot/generate/code',
      tags: TAGS,
      summary: DOCS['generate-code'].summary,
      description: DOCS['generate-code'].description,
      protect: true,
    },
    errors: ['REQUEST_NOT_UNDERSTOOD'],
  })
  .input(GenerateCodeInput)
  .output(GeneratedCode)
  .mutation(({ ctx, input }) => generateCode(ctx, input));
