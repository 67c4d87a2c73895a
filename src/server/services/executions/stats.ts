import { and, avg, count, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { rowsOf } from '@/server/db/rows';
import { executions } from '@/server/db/schema';
import type { ServiceContext } from '../context';
import { isUuid } from '../context';
import { compactNodes } from './node-runs';

export interface StatsInput {
  pipeline_id?: string;
  since?: string;
  until?: string;
}

/**
 * Aggregates over finished executions: success rate, average duration (of runs, not step sessions), counts by status, and which node
 * types the failures came from (the node that failed, not the ones that failed after it).
 */
export async function executionStats(ctx: ServiceContext, input: StatsInput) {
  const where: SQL[] = [eq(executions.orgId, ctx.principal.orgId)];
  if (input.pipeline_id !== undefined) where.push(isUuid(input.pipeline_id) ? eq(executions.pipelineId, input.pipeline_id) : sql`false`);
  if (input.since) where.push(gte(executions.createdAt, new Date(input.since)));
  if (input.until) where.push(lt(executions.createdAt, new Date(input.until)));
  const scope = and(...where);
  const [byStatus, durations, errors] = await Promise.all([
    ctx.db.select({ status: executions.status, n: count() }).from(executions).where(scope).groupBy(executions.status),
    ctx.db
      .select({ avg: avg(executions.durationMs) })
      .from(executions)
      // a step session's duration is a person's think time, not the pipeline's
      .where(and(scope, sql`${executions.status} in ('completed', 'failed')`, sql`${executions.trigger} <> 'step'`)),
    // failed nodes of runs with rows, and of runs whose records are stored compactly (node-runs.ts)
    ctx.db.execute(sql`select f.node_type, f.code, count(*)::int as n from (
        select n.node_type, n.error->>'code' as code from execution_nodes n join executions on executions.id = n.execution_id
          where ${scope} and n.status = 'failed' and coalesce(n.error->>'code', '') <> 'UPSTREAM_FAILED'
        union all
        select n.node_type, n.error->>'code' from executions ${compactNodes('executions')}
          where ${scope} and n.status = 'failed' and coalesce(n.error->>'code', '') <> 'UPSTREAM_FAILED'
      ) f group by f.node_type, f.code order by count(*) desc`),
  ]);
  const statusCounts = Object.fromEntries(byStatus.map((r) => [r.status, r.n]));
  const completed = statusCounts.completed ?? 0;
  const failed = statusCounts.failed ?? 0;
  const byType = new Map<string, { node_type: string; count: number; codes: Record<string, number> }>();
  for (const e of rowsOf<{ node_type: string; code: string | null; n: number }>(errors)) {
    const entry = byType.get(e.node_type) ?? { node_type: e.node_type, count: 0, codes: {} };
    entry.count += e.n;
    entry.codes[e.code ?? 'UNKNOWN'] = e.n;
    byType.set(e.node_type, entry);
  }
  return {
    total_executions: byStatus.reduce((s, r) => s + r.n, 0),
    by_status: statusCounts,
    success_rate: completed + failed === 0 ? null : completed / (completed + failed),
    average_duration_ms: durations[0]?.avg == null ? null : Math.round(Number(durations[0].avg)),
    error_distribution: [...byType.values()].sort((a, b) => b.count - a.count),
    window: { pipeline_id: input.pipeline_id ?? null, since: input.since ?? null, until: input.until ?? null },
  };
}
