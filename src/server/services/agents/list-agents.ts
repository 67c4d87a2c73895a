import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import { agents } from '@/server/db/schema';
import type { ServiceContext } from '../context';
import { agentView, templateView } from './agent-views';
import { AGENT_TEMPLATES } from './templates';

export async function listAgents(
  ctx: ServiceContext,
  q: { limit: number; offset: number; base_templates?: boolean; type?: string; is_active?: boolean; project_id?: string },
) {
  if (q.base_templates) {
    const all = AGENT_TEMPLATES.filter((t) => !q.type || t.agent_type === q.type).filter(() => q.is_active !== false && !q.project_id);
    return { agents: all.slice(q.offset, q.offset + q.limit).map(templateView), total_count: all.length };
  }
  const where: SQL[] = [eq(agents.orgId, ctx.principal.orgId)];
  if (q.type) where.push(eq(agents.agentType, q.type));
  if (q.is_active !== undefined) where.push(q.is_active ? inArray(agents.status, ['active', 'deployed']) : eq(agents.status, 'inactive'));
  if (q.project_id) where.push(eq(agents.projectId, q.project_id));
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(agents)
      .where(and(...where))
      .orderBy(desc(agents.createdAt), desc(agents.id))
      .limit(q.limit)
      .offset(q.offset),
    ctx.db
      .select({ n: count() })
      .from(agents)
      .where(and(...where)),
  ]);
  return { agents: rows.map(agentView), total_count: total?.n ?? 0 };
}
