import { inArray, and, eq } from 'drizzle-orm';
import { jsonSchema, tool, type ToolSet } from 'ai';
import type { JSONSchema7 } from '@ai-sdk/provider';
import { NodeError } from '@/engine/node-error';
import { compileSchema, toIssue } from '@/engine/lib/json-schema';
import type { AssignedTool } from '@/server/db/schema';
import { tools } from '@/server/db/schema';
import { OutboundError } from '@/shared/outbound-error';
import type { ServiceContext } from '../context';
import { builtinTool } from './builtin';
import { runCustomTool, type ToolImplementation } from './custom-run';
import { ToolError, type ToolRunContext } from './tool-types';

const TOOL_TIME_LIMIT_MS = 30_000;

/** A tool's failure as its result, so the model can react and the conversation shows why. */
function failure(e: unknown) {
  if (e instanceof ToolError || e instanceof NodeError || e instanceof OutboundError) return { error: { code: e.code, message: e.message } };
  if (e instanceof Error && e.name === 'TimeoutError')
    return { error: { code: 'TOOL_TIMEOUT', message: `The tool did not answer within ${TOOL_TIME_LIMIT_MS / 1000} s.` } };
  return { error: { code: 'TOOL_FAILED', message: 'The tool failed unexpectedly.' } };
}

/**
 * The AI SDK tools of an agent's assignments, built for this request: every tool runs with the caller's
 * organization (its connectors, pipelines and outbound policy, from the host in `ctx`) and nothing else. Inputs are checked against the
 * tool's schema before it runs; failures become results the model sees.
 */
export async function buildToolSet(ctx: ServiceContext, assigned: AssignedTool[], signal: AbortSignal, testMode = false): Promise<ToolSet> {
  const customIds = assigned.map((a) => a.id).filter((id) => !builtinTool(id));
  const rows = customIds.length
    ? await ctx.db
        .select()
        .from(tools)
        .where(and(eq(tools.orgId, ctx.principal.orgId), inArray(tools.id, customIds)))
    : [];
  const services = ctx.host.nodeServices(ctx.db, ctx.principal.orgId);
  const set: ToolSet = {};
  for (const a of assigned) {
    const builtin = builtinTool(a.id);
    const row = rows.find((r) => r.id === a.id);
    if (!builtin && !row) continue; // deleted since it was assigned
    const name = builtin?.id ?? row!.name;
    const schema = (builtin?.input_schema ?? row!.inputSchema) as Record<string, unknown>;
    const validate = compileSchema(schema);
    const run = (t: ToolRunContext, input: Record<string, unknown>) =>
      builtin ? builtin.run(t, input, a.config) : runCustomTool(t, row!.implementation as ToolImplementation, input);
    set[name] = tool({
      description: builtin?.description ?? row!.description,
      inputSchema: jsonSchema<Record<string, unknown>>(schema as JSONSchema7), // checked as JSON Schema when the tool was saved,
      execute: async (input) => {
        if (!validate(input))
          return {
            error: {
              code: 'TOOL_INPUT_INVALID',
              message: (validate.errors ?? [])
                .map(toIssue)
                .map((i) => `${i.path}: ${i.message}`)
                .join('; '),
            },
          };
        try {
          return await run({ ctx, services, testMode, signal: AbortSignal.any([signal, AbortSignal.timeout(TOOL_TIME_LIMIT_MS)]) }, input);
        } catch (e) {
          return failure(e);
        }
      },
    });
  }
  return set;
}
