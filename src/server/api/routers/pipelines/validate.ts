import { z } from 'zod';
import { readProcedure } from '@/server/api/trpc';
import { validatePipelineDefinition } from '@/server/services/pipelines/validate-definition';

const Finding = z.object({ node_id: z.string().nullable(), code: z.string(), message: z.string(), connection_id: z.string().optional() });

/** The engine's validator for the editor (the copilot's REST validate endpoint reuses the service). */
export const validate = readProcedure
  .input(z.object({ definition: z.unknown() }))
  .output(z.object({ valid: z.boolean(), errors: z.array(Finding), warnings: z.array(Finding) }))
  // a mutation only so the definition goes in a POST body; it changes nothing
  .mutation(({ input }) => validatePipelineDefinition(input.definition));
