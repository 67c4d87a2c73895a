import type { agents, AgentConfig } from '@/server/db/schema';
import type { AgentTemplate } from './templates';

export type AgentRow = typeof agents.$inferSelect;
export type AgentStatus = AgentRow['status'];

export function agentView(row: AgentRow) {
  return {
    id: row.id,
    name: row.name,
    agent_type: row.agentType,
    description: row.description,
    status: row.status,
    model_config: row.modelConfig,
    prompt_template: row.promptTemplate,
    instructions: row.instructions,
    tools: row.tools.map((t) => t.id),
    is_active: row.status !== 'inactive',
    is_template: false,
    project_id: row.projectId,
    template_id: row.templateId,
    version: row.version,
    deployed_at: row.deployedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function templateView(t: AgentTemplate) {
  return {
    id: t.id,
    name: t.name,
    agent_type: t.agent_type,
    description: t.description,
    status: 'active' as const,
    model_config: t.model_config,
    prompt_template: t.prompt_template,
    instructions: t.instructions,
    tools: t.tools.map((x) => x.id),
    is_active: true,
    is_template: true,
    project_id: null,
    template_id: null,
    version: 0,
    deployed_at: null,
    created_at: null,
    updated_at: null,
  };
}

export type AgentView = ReturnType<typeof agentView> | ReturnType<typeof templateView>;

export function configOf(row: AgentRow): AgentConfig {
  return {
    name: row.name,
    agent_type: row.agentType,
    description: row.description,
    model_config: row.modelConfig,
    prompt_template: row.promptTemplate,
    instructions: row.instructions,
    tools: row.tools,
  };
}
