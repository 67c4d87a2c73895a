import { sql } from 'drizzle-orm';
import { rowsOf } from '@/server/db/rows';
import type { PayloadState } from '@/shared/data-settings';
import type { ServiceContext } from '../context';
import { NODE_BYTES, RUN_BYTES } from './prune-batches';
import { retentionTargets } from './targets';

/** Runs per pipeline and payload state whose size is measured; the rest of the state's runs are taken to be alike. */
const SAMPLE = 50;
/** How many of a pipeline's newest (or oldest) runs a sample is looked for in. */
const WALK = 5_000;
const DAY_MS = 86_400_000;

interface CountRow {
  pipeline_id: string;
  payloads: PayloadState;
  runs: number;
}

interface Removed {
  executions_deleted: number;
  payloads_pruned: number;
  bytes_freed: number;
}

const none = (): Removed => ({ executions_deleted: 0, payloads_pruned: 0, bytes_freed: 0 });

/**
 * The storage each of the organization's pipelines uses and what the pruner removed of it, for the dashboard and
 * GET /api/storage. Run counts are exact (by payload state); bytes are an estimate: each state's count times the
 * average stored size of up to 50 of its runs (row and node records, values as stored: compressed, TOAST included),
 * found among its newest 5,000 runs (its oldest for pruned ones); a state with no run there is taken at the
 * pipeline's average. Exact sizes would read every node record, which a feed of a
 * million runs makes too slow for a page.
 */
export async function storageReport(ctx: ServiceContext) {
  const orgId = ctx.principal.orgId;
  const counts = rowsOf<CountRow>(
    await ctx.db.execute(sql`select pipeline_id, payloads, count(*)::int as runs from executions where org_id = ${orgId} group by 1, 2`),
  );
  const groups = counts.map((c) => ({ pipeline_id: c.pipeline_id, payloads: c.payloads }));
  const averages = new Map<string, number>();
  if (groups.length) {
    // each state's runs sampled among the pipeline's newest 5,000 runs (the oldest for `pruned`), so a rare state
    // costs a bounded walk of the pipeline's index, not all its runs
    const measured = (order: 'asc' | 'desc', pruned: boolean) => sql`select ${RUN_BYTES} + coalesce((select sum(${NODE_BYTES}) from execution_nodes n
        where n.execution_id = e.id), 0) as bytes
      from (select * from executions x where x.pipeline_id = g.pipeline_id and x.org_id = ${orgId} order by x.created_at ${sql.raw(order)} limit ${WALK}) e
      where e.payloads = g.payloads and (g.payloads = 'pruned') = ${pruned} limit ${SAMPLE}`;
    const rows = rowsOf<{ pipeline_id: string; payloads: string; avg_bytes: number | string }>(
      await ctx.db.execute(sql`select g.pipeline_id, g.payloads, avg(s.bytes) as avg_bytes
        from jsonb_to_recordset(${JSON.stringify(groups)}::jsonb) as g(pipeline_id uuid, payloads text)
        cross join lateral ((${measured('asc', true)}) union all (${measured('desc', false)})) s group by 1, 2`),
    );
    for (const r of rows) averages.set(`${r.pipeline_id}/${r.payloads}`, Number(r.avg_bytes));
  }
  const targets = new Map((await retentionTargets(ctx.db, orgId)).map((t) => [t.pipelineId, t]));
  const [last] = rowsOf<{ id: string; started_at: string | Date; finished_at: string | Date | null; status: string; as_of: string | Date }>(
    await ctx.db.execute(sql`select id, started_at, finished_at, status, as_of from prune_runs order by started_at desc limit 1`),
  );
  const removed = rowsOf<{ pipeline_id: string; last: boolean; executions_deleted: number; payloads_pruned: number; bytes_freed: number | string }>(
    await ctx.db.execute(sql`select c.pipeline_id, (c.run_id = ${last?.id ?? null}::uuid) as last, sum(c.executions_deleted)::int as executions_deleted,
        sum(c.payloads_pruned)::int as payloads_pruned, sum(c.bytes_freed) as bytes_freed
      from prune_counts c join prune_runs r on r.id = c.run_id
      where c.org_id = ${orgId} and r.started_at >= ${new Date(Date.now() - 7 * DAY_MS).toISOString()}::timestamptz
      group by 1, 2`),
  );
  const byPipeline = new Map<string, { runs: Record<string, number>; bytes: number; week: Removed }>();
  const entry = (id: string) => {
    let e = byPipeline.get(id);
    if (!e) byPipeline.set(id, (e = { runs: {}, bytes: 0, week: none() }));
    return e;
  };
  const pipelineAverage = (id: string) => {
    const found = [...averages].filter(([k]) => k.startsWith(`${id}/`)).map(([, v]) => v);
    return found.length ? found.reduce((a, b) => a + b, 0) / found.length : 0;
  };
  for (const c of counts) {
    const e = entry(c.pipeline_id);
    e.runs[c.payloads] = c.runs;
    e.bytes += c.runs * (averages.get(`${c.pipeline_id}/${c.payloads}`) ?? pipelineAverage(c.pipeline_id));
  }
  const lastRun = none();
  for (const r of removed) {
    const week = entry(r.pipeline_id).week;
    week.executions_deleted += r.executions_deleted;
    week.payloads_pruned += r.payloads_pruned;
    week.bytes_freed += Number(r.bytes_freed);
    if (r.last) {
      lastRun.executions_deleted += r.executions_deleted;
      lastRun.payloads_pruned += r.payloads_pruned;
      lastRun.bytes_freed += Number(r.bytes_freed);
    }
  }
  const names = new Map(
    rowsOf<{ id: string; name: string }>(await ctx.db.execute(sql`select id, name from pipelines where org_id = ${orgId}`)).map((p) => [p.id, p.name]),
  );
  const pipelines = [...byPipeline].map(([id, e]) => {
    const t = targets.get(id);
    const executions = Object.values(e.runs).reduce((s, n) => s + n, 0);
    return {
      pipeline_id: id,
      /** null: the pipeline was deleted (its runs stay, under the organization's retention) */
      name: names.get(id) ?? null,
      executions,
      with_payloads: (e.runs.kept ?? 0) + (e.runs.input ?? 0),
      payloads_pruned: e.runs.pruned ?? 0,
      payloads_not_kept: e.runs.not_kept ?? 0,
      estimated_bytes: Math.round(e.bytes),
      retention: t ? { payload_days: t.settings.payload_days, execution_days: t.settings.execution_days, max_executions: t.settings.max_executions } : null,
      removed_last_7_days: e.week,
    };
  });
  pipelines.sort((a, b) => b.estimated_bytes - a.estimated_bytes || b.executions - a.executions);
  const iso = (d: string | Date | null) => (d === null ? null : new Date(d).toISOString());
  return {
    pipelines,
    total: { executions: pipelines.reduce((s, p) => s + p.executions, 0), estimated_bytes: pipelines.reduce((s, p) => s + p.estimated_bytes, 0) },
    pruner: {
      last_run: last
        ? { id: last.id, status: last.status, started_at: iso(last.started_at)!, finished_at: iso(last.finished_at), as_of: iso(last.as_of)!, ...lastRun }
        : null,
      last_7_days: pipelines.reduce((s, p) => {
        s.executions_deleted += p.removed_last_7_days.executions_deleted;
        s.payloads_pruned += p.removed_last_7_days.payloads_pruned;
        s.bytes_freed += p.removed_last_7_days.bytes_freed;
        return s;
      }, none()),
    },
  };
}
