import { sql } from 'drizzle-orm';
import { rowsOf } from '@/server/db/rows';
import type { ServiceContext } from '../context';
import { failingNow } from '../alerts/failing-now';
import { compactNodes } from './node-runs';

export interface DashboardInput {
  /** Days back from today, today included */
  days: number;
  /** IANA time zone the days are counted in (the viewer's) */
  time_zone: string;
}

interface DayRow {
  day: string;
  completed: number;
  failed: number;
  other: number;
}

/**
 * The organization's runs over the last `days` days (step sessions aside: they are a person's think time): runs
 * per day by outcome, the pipelines that fail most, and the slowest nodes (95th percentile duration), for the
 * dashboard. Three aggregate statements over the window; days without runs are filled in with zeros.
 */
export async function dashboard(ctx: ServiceContext, input: DashboardInput) {
  const orgId = ctx.principal.orgId;
  const tz = input.time_zone;
  // the window starts at midnight, in the viewer's zone, `days - 1` days ago
  const window = sql`e.org_id = ${orgId} and e.trigger <> 'step'
    and e.created_at >= (date_trunc('day', now() at time zone ${tz}) - make_interval(days => ${input.days - 1})) at time zone ${tz}`;
  const [days, pipelines, nodes, failing] = await Promise.all([
    ctx.db.execute(sql`select to_char(date_trunc('day', e.created_at at time zone ${tz}), 'YYYY-MM-DD') as day,
        count(*) filter (where e.status = 'completed')::int as completed,
        count(*) filter (where e.status = 'failed')::int as failed,
        count(*) filter (where e.status not in ('completed', 'failed'))::int as other
      from executions e where ${window} group by 1 order by 1`),
    ctx.db.execute(sql`select e.pipeline_id, p.name, count(*)::int as runs,
        count(*) filter (where e.status = 'failed')::int as failed
      from executions e join pipelines p on p.id = e.pipeline_id
      where ${window} and e.status in ('completed', 'failed')
      group by e.pipeline_id, p.name order by failed desc, runs desc limit 8`),
    // node records as rows, and as stored compactly in the executions row (node-runs.ts)
    ctx.db.execute(sql`select n.pipeline_id, n.pipeline_name, n.node_id, n.node_type, count(*)::int as runs,
        round(avg(n.duration_ms))::int as avg_ms,
        round(percentile_cont(0.95) within group (order by n.duration_ms))::int as p95_ms
      from (select e.pipeline_id, p.name as pipeline_name, n.node_id, n.node_type, n.duration_ms
          from execution_nodes n join executions e on e.id = n.execution_id join pipelines p on p.id = e.pipeline_id
          where ${window} and n.status = 'completed' and n.duration_ms is not null
        union all
        select e.pipeline_id, p.name, n.node_id, n.node_type, n.duration_ms
          from executions e ${compactNodes('e')} join pipelines p on p.id = e.pipeline_id
          where ${window} and n.status = 'completed' and n.duration_ms is not null) n
      group by n.pipeline_id, n.pipeline_name, n.node_id, n.node_type order by p95_ms desc limit 8`),
    failingNow(ctx),
  ]);
  const byDay = new Map(rowsOf<DayRow>(days).map((d) => [d.day, d]));
  return {
    days: lastDays(input.days, tz).map((day) => byDay.get(day) ?? { day, completed: 0, failed: 0, other: 0 }),
    failing_pipelines: rowsOf<{ pipeline_id: string; name: string; runs: number; failed: number }>(pipelines).map((p) => ({
      ...p,
      failure_rate: p.runs ? p.failed / p.runs : 0,
    })),
    failing_now: failing,
    slowest_nodes: rowsOf<{ pipeline_id: string; pipeline_name: string; node_id: string; node_type: string; runs: number; avg_ms: number; p95_ms: number }>(
      nodes,
    ),
  };
}

/** The last `n` calendar days in `timeZone`, oldest first, as YYYY-MM-DD. */
function lastDays(n: number, timeZone: string): string[] {
  const format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const out: string[] = [];
  for (let i = n - 1; i >= 0; i--) out.push(format.format(new Date(Date.now() - i * 86_400_000)));
  return [...new Set(out)];
}
