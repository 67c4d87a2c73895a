import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import { listLanguageModels } from '@/server/ai/models';
import { agents, type AgentConfig, type AssignedTool } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { isUuid, type ServiceContext } from '../context';
import { builtinTool } from '../tools/builtin';
import { findCustomTool } from '../tools/tools';
import { AGENT_TEMPLATES, type AgentTemplate, findTemplate } from './templates';

export type AgentRow = typeof agents.$inferSelect;
export type AgentStatus = AgentRow['status'];

export interface AgentInput {
  name?: string;
  agent_type?: string;
  description?: string;
  model_config?: Partial<AgentConfig['model_config']>;
  prompt_template?: string;
  instructions?: string;
  /** Tool ids (a built-in tool's name, or a custom tool's id or name). */
  tools?: string[];
  project_id?: string | null;
  template_id?: string;
  is_active?: boolean;
}

export const agentNotFound = (id: string) => new AppError('AGENT_NOT_FOUND', `Agent ${id} was not found.`);

/** An agent of the organization as the API shows it (the spec's fields first). */
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

/** The caller's agent `id` (another organization's is "not found"). */
export async function findAgentRow(ctx: ServiceContext, id: string): Promise<AgentRow> {
  if (!isUuid(id)) throw agentNotFound(id);
  const [row] = await ctx.db.select().from(agents).where(and(eq(agents.id, id), eq(agents.orgId, ctx.principal.orgId))).limit(1);
  if (!row) {
    if (findTemplate(id)) throw new AppError('AGENT_TEMPLATE_READ_ONLY', `Agent ${id} is a built-in template: copy it (POST /api/agents with "template_id") to change, deploy or chat with it.`);
    throw agentNotFound(id);
  }
  return row;
}

export function configOf(row: AgentRow): AgentConfig {
  return { name: row.name, agent_type: row.agentType, description: row.description, model_config: row.modelConfig, prompt_template: row.promptTemplate, instructions: row.instructions, tools: row.tools };
}

function invalid(path: string, message: string): never {
  throw new AppError('VALIDATION_FAILED', `The agent is not valid: ${path}: ${message}.`, [{ path, message }]);
}

/** A model id the service knows (it may still lack its provider's key: chat and deploy say so). */
export function checkModel(model: string) {
  const entry = listLanguageModels().find((m) => m.id === model);
  const open = /^(openai|anthropic)\/.+/.test(model);
  if (!entry && !open) throw new AppError('MODEL_NOT_FOUND', `Unknown language model "${model}": GET /api/llm-models lists the models (clinflow/offline is always available).`);
  return entry;
}

/** Tool ids resolved to assignments, keeping the settings of tools already assigned. */
export async function resolveTools(ctx: ServiceContext, ids: string[], current: AssignedTool[] = []): Promise<AssignedTool[]> {
  const out: AssignedTool[] = [];
  for (const [i, ref] of ids.entries()) {
    const id = builtinTool(ref)?.id ?? (await findCustomTool(ctx, ref))?.id;
    if (!id) invalid(`tools.${i}`, `no tool "${ref}": GET /api/tools lists the built-in tools and this organization's own`);
    if (out.some((t) => t.id === id)) continue;
    out.push({ id, config: current.find((t) => t.id === id)?.config ?? {} });
  }
  return out;
}

export async function listAgents(ctx: ServiceContext, q: { limit: number; offset: number; base_templates?: boolean; type?: string; is_active?: boolean; project_id?: string }) {
  if (q.base_templates) {
    const all = AGENT_TEMPLATES.filter((t) => !q.type || t.agent_type === q.type).filter(() => q.is_active !== false && !q.project_id);
    return { agents: all.slice(q.offset, q.offset + q.limit).map(templateView), total_count: all.length };
  }
  const where: SQL[] = [eq(agents.orgId, ctx.principal.orgId)];
  if (q.type) where.push(eq(agents.agentType, q.type));
  if (q.is_active !== undefined) where.push(q.is_active ? inArray(agents.status, ['active', 'deployed']) : eq(agents.status, 'inactive'));
  if (q.project_id) where.push(eq(agents.projectId, q.project_id));
  const [rows, [total]] = await Promise.all([
    ctx.db.select().from(agents).where(and(...where)).orderBy(desc(agents.createdAt), desc(agents.id)).limit(q.limit).offset(q.offset),
    ctx.db.select({ n: count() }).from(agents).where(and(...where)),
  ]);
  return { agents: rows.map(agentView), total_count: total?.n ?? 0 };
}

export async function getAgent(ctx: ServiceContext, id: string): Promise<AgentView> {
  const template = findTemplate(id);
  if (template) return templateView(template);
  return agentView(await findAgentRow(ctx, id));
}

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

/**
 * PUT /api/agents/{id}: the fields given change. `is_active: false` retires an agent (status inactive: no chat,
 * no deploy) and `true` brings it back; a deployed agent must be undeployed before it is retired.
 */
export async function updateAgent(ctx: ServiceContext, id: string, input: AgentInput) {
  const row = await findAgentRow(ctx, id);
  const model_config = { ...row.modelConfig, ...input.model_config };
  if (input.model_config?.model) checkModel(model_config.model);
  let status = row.status;
  if (input.is_active === false && row.status === 'deployed') throw new AppError('AGENT_DEPLOYED', `Agent ${id} is deployed: undeploy it before making it inactive.`);
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

/** DELETE /api/agents/{id}: refused (409) while deployed, as for pipelines; its conversations go with it. */
export async function deleteAgent(ctx: ServiceContext, id: string) {
  const row = await findAgentRow(ctx, id);
  if (row.status === 'deployed') throw new AppError('AGENT_DEPLOYED', `Agent ${id} is deployed: undeploy it first.`);
  await ctx.db.delete(agents).where(and(eq(agents.id, row.id), eq(agents.orgId, ctx.principal.orgId)));
}
