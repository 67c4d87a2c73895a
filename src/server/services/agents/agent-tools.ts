import { and, eq } from 'drizzle-orm';
import { compileSchema, toIssue } from '@/engine/lib/json-schema';
import { agents, type AssignedTool } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { ServiceContext } from '../context';
import { builtinTool } from '../tools/builtin';
import { getTool } from '../tools/tools';
import { resolveTools } from './agent-input';
import { findAgentRow } from './find-agent';
import { findTemplate } from './templates';

async function assignmentViews(ctx: ServiceContext, assigned: AssignedTool[]) {
  const views = [];
  for (const a of assigned) {
    const tool = await getTool(ctx, a.id).catch(() => undefined);
    if (tool) views.push({ ...tool, config: a.config });
  }
  return { tools: views, total_count: views.length };
}

/** GET /api/agents/{id}/tools: the tools given to the agent (or template), each with its settings. */
export async function listAgentTools(ctx: ServiceContext, agentId: string) {
  const template = findTemplate(agentId);
  return assignmentViews(ctx, template ? template.tools : (await findAgentRow(ctx, agentId)).tools);
}

/** POST /api/agents/{id}/tools `{tool_id, config}`: assigns a tool, or changes the settings of one assigned. */
export async function assignTool(ctx: ServiceContext, agentId: string, input: { tool_id: string; config?: Record<string, unknown> }) {
  const row = await findAgentRow(ctx, agentId);
  await getTool(ctx, input.tool_id); // 404 TOOL_NOT_FOUND for a tool this organization does not have
  const [resolved] = await resolveTools(ctx, [input.tool_id], row.tools);
  const config = input.config ?? resolved!.config;
  const builtin = builtinTool(resolved!.id);
  if (builtin && input.config) {
    const validate = compileSchema(builtin.config_schema);
    if (!validate(config)) {
      const issues = (validate.errors ?? []).map(toIssue);
      throw new AppError('VALIDATION_FAILED', `Invalid config for ${builtin.id}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
    }
  }
  const tools = row.tools.some((t) => t.id === resolved!.id)
    ? row.tools.map((t) => (t.id === resolved!.id ? { id: t.id, config } : t))
    : [...row.tools, { id: resolved!.id, config }];
  await ctx.db
    .update(agents)
    .set({ tools, updatedAt: new Date() })
    .where(and(eq(agents.id, row.id), eq(agents.orgId, ctx.principal.orgId)));
  return { ...(await getTool(ctx, resolved!.id)), config };
}

/** DELETE /api/agents/{id}/tools/{toolId} */
export async function removeTool(ctx: ServiceContext, agentId: string, toolId: string) {
  const row = await findAgentRow(ctx, agentId);
  const kept = row.tools.filter((t) => t.id !== toolId && builtinTool(toolId)?.id !== t.id);
  if (kept.length === row.tools.length) throw new AppError('TOOL_NOT_ASSIGNED', `Tool ${toolId} is not assigned to agent ${agentId}.`);
  await ctx.db
    .update(agents)
    .set({ tools: kept, updatedAt: new Date() })
    .where(and(eq(agents.id, row.id), eq(agents.orgId, ctx.principal.orgId)));
}
