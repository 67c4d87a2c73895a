import { sql } from 'drizzle-orm';
import { rowsOf } from '@/server/db/rows';
import type { ServiceContext } from '../context';

export interface FailingPipeline {
  pipeline_id: string;
  name: string;
  /** The error code of its latest production run, which failed. */
  last_error_code: string | null;
  last_failed_at: string;
  /** Production runs that failed in the last hour. */
  failed_last_hour: number;
  /** Failures held back from alerts in the current windows (sent with the next alert). */
  held_back: number;
}

/**
 * The organization's pipelines failing now, for the dashboard's mark: those whose latest production run of the last
 * 24 hours (test runs and step sessions aside) failed; with the failures of the last hour and the alerts held back.
 */
export async function failingNow(ctx: ServiceContext): Promise<FailingPipeline[]> {
  const result = await ctx.db.execute(sql`
    select e.pipeline_id, p.name,
      (array_agg(e.error->>'code' order by e.finished_at desc))[1] as last_error_code,
      to_char(max(e.finished_at) filter (where e.status = 'failed') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last_failed_at,
      count(*) filter (where e.status = 'failed' and e.finished_at >= now() - interval '1 hour')::int as failed_last_hour,
      coalesce((select sum(w.held_back) from alert_windows w where w.pipeline_id = e.pipeline_id), 0)::int as held_back
    from executions e join pipelines p on p.id = e.pipeline_id
    where e.org_id = ${ctx.principal.orgId} and not e.test_mode and e.trigger <> 'step'
      and e.status in ('completed', 'failed') and e.finished_at >= now() - interval '24 hours'
    group by e.pipeline_id, p.name
    having (array_agg(e.status order by e.finished_at desc))[1] = 'failed'
    order by max(e.finished_at) desc limit 20`);
  return rowsOf<FailingPipeline>(result);
}
