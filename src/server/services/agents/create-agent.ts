import { agents } from '@/server/db/schema';
import type { ServiceContext } from '../context';
import { type AgentInput, checkModel, invalid, resolveTools } from './agent-input';
import { agentView } from './agent-views';
import { findTemplate } from './templates';

/** POST /api/agents; with `template_id`, what is not given comes from that template (its tools and their settings too). */
export async function createAgent(ctx: ServiceContext, input: AgentInput) {
  const template = input.template_id ? findTemplate(input.template_id) : undefined;
  if (input.template_id && !template) invalid('template_id', `no base template ${input.template_id} (GET /api/agents?base_templates=true lists them)`);
  const name = input.name ?? template?.name;
  if (!name) invalid('name', 'required');
  const model_config = { model: 'clinflow/offline', temperature: 0.2, max_tokens: 1024, ...template?.model_config, ...input.model_config };
  checkModel(model_config.model);
  const tools = input.tools ? await resolveTools(ctx, input.tools, template?.tools) : (template?.tools ?? []);
  const [row] = await ctx.db
    .insert(agents)
    .values({
      orgId: ctx.principal.orgId,
      name,
      agentType: input.agent_type ?? template?.agent_type ?? 'custom',
      description: input.description ?? template?.description ?? '',
      status: input.is_active === false ? 'inactive' : 'active',
      modelConfig: model_config,
      promptTemplate: input.prompt_template ?? template?.prompt_template ?? '{{input}}',
      instructions: input.instructions ?? template?.instructions ?? '',
      tools,
      projectId: input.project_id ?? null,
      templateId: template?.id ?? null,
      createdBy: ctx.principal.userId ?? ctx.principal.keyId ?? null,
    })
    .returning();
  return agentView(row!);
}
