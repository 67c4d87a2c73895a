import { and, eq } from 'drizzle-orm';
import { agents } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { ServiceContext } from '../context';
import { type AgentInput, checkModel, resolveTools } from './agent-input';
import { agentView } from './agent-views';
import { findAgentRow } from './find-agent';

/**
 * PUT /api/agents/{id}: the fields given change. `is_active: false` retires an agent (status inactive: no chat,
 * no deploy) and `true` brings it back; a deployed agent must be undeployed before it is retired.
 */
export async function updateAgent(ctx: ServiceContext, id: string, input: AgentInput) {
  const row = await findAgentRow(ctx, id);
  const model_config = { ...row.modelConfig, ...input.model_config };
  if (input.model_config?.model) checkModel(model_config.model);
  let status = row.status;
  if (input.is_active === false && row.status === 'deployed')
    throw new AppError('AGENT_DEPLOYED', `Agent ${id} is deployed: undeploy it before making it inactive.`);
  if (input.is_active === false) status = 'inactive';
  if (input.is_active === true && row.status === 'inactive') status = 'active';
  const [updated] = await ctx.db
    .update(agents)
    .set({
      name: input.name ?? row.name,
      agentType: input.agent_type ?? row.agentType,
      description: input.description ?? row.description,
      modelConfig: model_config,
      promptTemplate: input.prompt_template ?? row.promptTemplate,
      instructions: input.instructions ?? row.instructions,
      tools: input.tools ? await resolveTools(ctx, input.tools, row.tools) : row.tools,
      projectId: input.project_id === undefined ? row.projectId : input.project_id,
      status,
      updatedAt: new Date(),
    })
    .where(and(eq(agents.id, row.id), eq(agents.orgId, ctx.principal.orgId)))
    .returning();
  return agentView(updated!);
}
