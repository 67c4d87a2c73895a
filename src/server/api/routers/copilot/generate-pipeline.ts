import { z } from 'zod';
import { executeProcedure } from '@/server/api/trpc';
import { generatePipeline } from '@/server/services/copilot/generate-pipeline';
import { NodeResults } from '../executions/execution.schema';
import { TAGS, Report, Node, Connection, PlannerModel, Description } from './copilot.schema';
import { DOCS } from './docs';
import { limited } from './limited';

export const generate = limited(executeProcedure)
  .meta({
    openapi: {
      method: 'POST',
      path: '/copilot/generate/pipeline',
      tags: TAGS,
      summary: DOCS['generate-pipeline'].summary,
      description: DOCS['generate-pipeline'].description,
      protect: true,
    },
    errors: ['MODEL_UNAVAILABLE', 'MODEL_NOT_FOUND'],
  })
  .input(
    z.object({
      description: Description,
      sample_input: z.unknown().optional().describe('A sample for the trigger (an HL7 message, a JSON body, a resource…): the proposal is dry-run on it'),
      model: PlannerModel,
    }),
  )
  .output(
    z.object({
      pipeline: z.object({ name: z.string(), nodes: z.array(Node), connections: z.array(Connection) }),
      validation: Report,
      dry_run: z
        .object({
          status: z.enum(['completed', 'failed']),
          outputs: z.record(z.string(), z.unknown()),
          node_results: NodeResults,
          error: z.object({ node_id: z.string().nullable(), code: z.string(), message: z.string() }).optional(),
        })
        .nullable(),
      reasoning: z.array(z.string()),
      unresolved: z.array(z.string()).describe('What the planner could not fill or connect: for the user to finish'),
      planner: z.enum(['offline', 'llm']).describe('llm: a language model designed it (model names it); offline: the rule-based planner'),
      model: z.string().describe('The model that planned: clinflow/offline for the offline planner (also when the named model failed: reasoning says why)'),
      attempts: z.number().int().optional().describe('LLM planner: how many answers the model gave (a second or third when the validator sent the first back)'),
      usage: z.object({ input_tokens: z.number().int(), output_tokens: z.number().int() }).optional().describe('LLM planner: tokens over all its answers'),
    }),
  )
  .mutation(({ ctx, input }) => generatePipeline(ctx, input));
