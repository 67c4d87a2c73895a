import { z } from 'zod';
import { readProcedure, router, writeProcedure } from '@/server/api/trpc';
import { storable } from '../storable';
import { Tool } from './tool.schema';
import { createTool, deleteTool, getTool, listTools, updateTool } from '@/server/services/tools/tools';

const TAGS = ['Tools'];
const NO_NUL = (s: string) => !s.includes('\u0000');
const Name = z
  .string()
  .regex(/^[a-z][a-z0-9_]{1,63}$/, 'name must be 2 to 64 lower-case letters, digits or _, starting with a letter (the model calls the tool by it)');
const Implementation = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('http'),
    connector: z.string().min(1).max(200).describe('An http connector (id or name): its base URL, headers and auth'),
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).default('POST'),
    path: z
      .string()
      .min(1)
      .max(2000)
      .refine(NO_NUL)
      .describe("Path under the connector's base URL; {{field}} is filled from the input; other fields go as query (GET, DELETE) or JSON body"),
  }),
  z.object({
    type: z.literal('pipeline'),
    pipeline_id: z.string().describe('A pipeline of this organization, run synchronously with the input (it must be deployed when the tool runs)'),
  }),
]);
const ToolBody = {
  name: Name,
  description: z.string().max(2000).refine(NO_NUL).default('').describe('What the tool does: the model reads it to decide when to call it'),
  input_schema: storable(z.record(z.string(), z.unknown())).describe("JSON Schema (type object) of the tool's input"),
  implementation: storable(Implementation),
};

const ToolId = z.object({ id: z.string().describe("A custom tool's UUID, or a built-in tool's name") });

const list = readProcedure
  .meta({ openapi: { method: 'GET', path: '/tools', tags: TAGS, summary: "List available tools: built-in ones, then the organization's own", protect: true } })
  .input(z.object({}))
  .output(z.object({ tools: z.array(Tool), total_count: z.number().int() }))
  .query(({ ctx }) => listTools(ctx));

const create = writeProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/tools',
      tags: TAGS,
      summary: 'Create a custom tool: an input JSON Schema and an HTTP call through a connector, or a pipeline',
      protect: true,
    },
    successStatus: 201,
    errors: ['TOOL_NAME_TAKEN'],
  })
  .input(z.object(ToolBody))
  .output(Tool)
  .mutation(async ({ ctx, input }) => {
    const tool = await createTool(ctx, input);
    ctx.response.headers.Location = `/api/tools/${tool.id}`;
    return tool;
  });

const get = readProcedure
  .meta({ openapi: { method: 'GET', path: '/tools/{id}', tags: TAGS, summary: 'Tool details and schema', protect: true }, errors: ['TOOL_NOT_FOUND'] })
  .input(ToolId)
  .output(Tool)
  .query(({ ctx, input }) => getTool(ctx, input.id));

const update = writeProcedure
  .meta({
    openapi: { method: 'PUT', path: '/tools/{id}', tags: TAGS, summary: 'Update a custom tool', protect: true },
    errors: ['TOOL_NOT_FOUND', 'TOOL_READ_ONLY', 'TOOL_NAME_TAKEN'],
  })
  .input(
    ToolId.extend({
      name: Name.optional(),
      description: ToolBody.description.optional(),
      input_schema: ToolBody.input_schema.optional(),
      implementation: Implementation.optional(),
    }),
  )
  .output(Tool)
  .mutation(({ ctx, input }) => {
    const { id, ...patch } = input;
    return updateTool(ctx, id, patch);
  });

const remove = writeProcedure
  .meta({
    openapi: { method: 'DELETE', path: '/tools/{id}', tags: TAGS, summary: 'Delete a custom tool no agent uses', protect: true },
    successStatus: 204,
    errors: ['TOOL_NOT_FOUND', 'TOOL_READ_ONLY', 'TOOL_IN_USE'],
  })
  .input(ToolId)
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    await deleteTool(ctx, input.id);
  });

/** The tool registry (issue 9). */
export const toolsRouter = router({ list, create, get, update, remove });
