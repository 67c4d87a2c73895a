import { and, eq } from 'drizzle-orm';
import { compileSchema, toIssue } from '@/engine/lib/json-schema';
import { getLanguageModel } from '@/server/ai/models';
import { agents } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { ServiceContext } from '../context';
import { builtinTool } from '../tools/builtin';
import { agentView, type AgentRow } from './agent-views';
import { findAgentRow } from './find-agent';
import { latestMatches, snapshot } from './versions';

/** What keeps an agent from running: its model not configured, a tool without the settings it needs. */
export function agentProblems(row: Pick<AgentRow, 'modelConfig' | 'tools'>): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  try {
    getLanguageModel(row.modelConfig.model);
  } catch (e) {
    problems.push({ path: 'model_config.model', message: (e as Error).message });
  }
  for (const [i, t] of row.tools.entries()) {
    const b = builtinTool(t.id);
    if (!b) continue;
    const validate = compileSchema(b.config_schema);
    if (!validate(t.config)) {
      for (const issue of (validate.errors ?? []).map(toIssue))
        problems.push({
          path: `tools.${i}.config${issue.path === '/' ? '' : issue.path.replaceAll('/', '.')}`,
          message: `${t.id}: ${issue.message} (POST /api/agents/{id}/tools with its config)`,
        });
    }
  }
  return problems;
}

/**
 * POST /api/agents/{id}/deploy: active → deployed (DESIGN.md §3 Agents). Refused while inactive (409) or while the
 * agent could not run (400 AGENT_INVALID with the problems). The deployed configuration is kept as a version.
 */
export async function deployAgent(ctx: ServiceContext, id: string) {
  const row = await findAgentRow(ctx, id);
  if (row.status === 'inactive') throw new AppError('AGENT_INACTIVE', `Agent ${id} is inactive: make it active (PUT is_active: true) before deploying it.`);
  const problems = agentProblems(row);
  if (problems.length)
    throw new AppError('AGENT_INVALID', `Agent ${id} cannot be deployed: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`, problems);
  if (!(await latestMatches(ctx, row))) await snapshot(ctx, row, 'deployed');
  const [updated] = await ctx.db
    .update(agents)
    .set({ status: 'deployed', deployedAt: row.status === 'deployed' ? row.deployedAt : new Date() })
    .where(and(eq(agents.id, row.id), eq(agents.orgId, ctx.principal.orgId)))
    .returning();
  return agentView(updated!);
}

/** POST /api/agents/{id}/undeploy: deployed → active; 409 when it is not deployed. */
export async function undeployAgent(ctx: ServiceContext, id: string) {
  const row = await findAgentRow(ctx, id);
  if (row.status !== 'deployed') throw new AppError('AGENT_NOT_DEPLOYED', `Agent ${id} is not deployed.`);
  const [updated] = await ctx.db
    .update(agents)
    .set({ status: 'active', deployedAt: null })
    .where(and(eq(agents.id, row.id), eq(agents.orgId, ctx.principal.orgId)))
    .returning();
  return agentView(updated!);
}
