import { and, eq } from 'drizzle-orm';
import { agents } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { ServiceContext } from '../context';
import { findAgentRow } from './find-agent';

/** DELETE /api/agents/{id}: refused (409) while deployed, as for pipelines; its conversations go with it. */
export async function deleteAgent(ctx: ServiceContext, id: string) {
  const row = await findAgentRow(ctx, id);
  if (row.status === 'deployed') throw new AppError('AGENT_DEPLOYED', `Agent ${id} is deployed: undeploy it first.`);
  await ctx.db.delete(agents).where(and(eq(agents.id, row.id), eq(agents.orgId, ctx.principal.orgId)));
}
