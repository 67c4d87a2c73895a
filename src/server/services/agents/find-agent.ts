import { and, eq } from 'drizzle-orm';
import { agents } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { isUuid, type ServiceContext } from '../context';
import type { AgentRow } from './agent-views';
import { findTemplate } from './templates';

export const agentNotFound = (id: string) => new AppError('AGENT_NOT_FOUND', `Agent ${id} was not found.`);

/** The caller's agent `id` (another organization's is "not found"). */
export async function findAgentRow(ctx: ServiceContext, id: string): Promise<AgentRow> {
  if (!isUuid(id)) throw agentNotFound(id);
  const [row] = await ctx.db
    .select()
    .from(agents)
    .where(and(eq(agents.id, id), eq(agents.orgId, ctx.principal.orgId)))
    .limit(1);
  if (!row) {
    if (findTemplate(id))
      throw new AppError(
        'AGENT_TEMPLATE_READ_ONLY',
        `Agent ${id} is a built-in template: copy it (POST /api/agents with "template_id") to change, deploy or chat with it.`,
      );
    throw agentNotFound(id);
  }
  return row;
}
