import { sql, type SQL } from 'drizzle-orm';
import { FEED_ENDS_CHANNEL } from '@/server/queue/held-runs';
import type { DataPolicy } from '@/shared/data-settings';
import { POLICY_SQL } from './data-policy';

/**
 * The end of one run as the batched write sends it (node-records.ts `saveResult`): the executions row's new values,
 * and either its node records (`records`, upserted into execution_nodes) or its compact node runs (`nodeRuns`, in the
 * row; its execution_nodes rows deleted). Texts are JSON as jsonText makes them (storable in jsonb).
 */
export interface EndRow {
  id: string;
  status: string;
  /** JSON text, or null when the run keeps none or keeps them deflated */
  outputs: string | null;
  /** the outputs deflated (base64), when kept so (stored-payloads.ts) */
  outputsZ: string | null;
  error: string | null;
  finishedAt: string;
  startedAt: string;
  durationMs: number;
  policy: string;
  payloads: string;
  inputBytes: number;
  outputBytes: number;
  storedBytes: number;
  /** false: the input goes (both columns) */
  keepInput: boolean;
  /** JSON text of the compact node runs, when the records stay no rows */
  nodeRuns: string | null;
  /** JSON texts of the records to upsert, when they stay rows */
  records: string[] | null;
  /** the claim the end is written under, and releases (queue/claims.ts) */
  claimedBy: string | null;
  /** the process that takes the runs held after this one by another process, to run them (queue/held-runs.ts) */
  takeFor: string | null;
  /** whether its end is told to the other processes though it took nothing (ResultData.tell) */
  tell: boolean;
}

/**
 * The JSON the batch statement carries at most: Postgres materializes the recordset and the update's result, so a
 * batch of large runs (1 MB records, a hundred of them) would hold several times its size in one backend. Ends beyond
 * it go the transaction's way (a statement each).
 */
export const BATCH_BYTES = 4 * 1024 * 1024;

/** About the JSON an end adds to the batch (its texts; the fixed fields are a few hundred bytes). */
export function endBytes(r: EndRow): number {
  let n = 300 + (r.outputs?.length ?? 0) + (r.outputsZ?.length ?? 0) + (r.error?.length ?? 0) + (r.nodeRuns?.length ?? 0);
  for (const t of r.records ?? []) n += t.length + 1;
  return n;
}

const str = (v: string | null) => (v === null ? 'null' : JSON.stringify(v));

/** One end as an element of the batch's JSON array (the JSON texts in it as they are: not quoted, not parsed again). */
function element(r: EndRow): string {
  return (
    `{"id":${str(r.id)},"status":${str(r.status)},"outputs":${r.outputs ?? 'null'},"outputs_z":${str(r.outputsZ)},"error":${r.error ?? 'null'},` +
    `"finished_at":${str(r.finishedAt)},"started_at":${str(r.startedAt)},"duration_ms":${r.durationMs},"data_policy":${str(r.policy)},` +
    `"payloads":${str(r.payloads)},"input_bytes":${r.inputBytes},"output_bytes":${r.outputBytes},"stored_bytes":${r.storedBytes},` +
    `"keep_input":${r.keepInput},"node_runs":${r.nodeRuns ?? 'null'},"records":${r.records ? `[${r.records.join(',')}]` : 'null'},` +
    `"claimed_by":${str(r.claimedBy)},"take_for":${str(r.takeFor)},"tell":${r.tell}}`
  );
}

const END_COLUMNS = sql.raw(
  'id uuid, status text, outputs jsonb, outputs_z text, error jsonb, finished_at timestamptz, started_at timestamptz, duration_ms integer, ' +
    'data_policy text, payloads text, input_bytes integer, output_bytes integer, stored_bytes integer, keep_input boolean, ' +
    'node_runs json, records json, claimed_by uuid, take_for uuid, tell boolean',
);

/** The most a NOTIFY payload may carry (Postgres refuses 8,000 bytes or more): past it, `*` tells the processes to read. */
const MAX_TELL = 7900;

/**
 * A run taken by an end's statement (`takeSuccessors`): it starts after `after_id`, the run that ended, and comes with what
 * its run reads of its row (run-execution.ts `take`), so the process that took it need not read it.
 */
export interface TakenRun {
  id: string;
  after_id: string;
  org_id: string;
  pipeline_id: string;
  pipeline_version: number;
  trigger: string;
  inputs: Record<string, unknown> | null;
  inputs_z: Uint8Array | null;
  policy: DataPolicy;
}

/**
 * The end of a statement that wrote the ends of runs (`ended`, a relation of `id`, `trigger`, `take_for` and `tell`): the
 * queued runs held by another process after them, claimed for the process they ended in (`take_for`) to run them next
 * (queue/held-runs.ts), returned as TakenRun rows; and, at commit, the ends of MLLP runs that may concern another process
 * (they took a run, or `tell`: they came from the queue or were taken from another) told to every process that receives
 * messages (NOTIFY FEED_ENDS_CHANNEL: `ended` or `ended:taken` entries; `*` when they do not fit), so that the one that
 * received them need not poll: it forgets the runs taken, stops counting the runs ended, and releases a run it held after
 * one that ended without taking it. A run admitted and ended in the same process is told to none.
 */
export function takeSuccessors(ended: SQL): SQL {
  return sql`t as (update executions s set claimed_by = t.take_for from ${ended} as t
      where t.take_for is not null and s.after_id = t.id and s.status = 'queued' and s.claimed_by <> t.take_for
      returning s.id, s.after_id, s.org_id, s.pipeline_id, s.pipeline_version, s.trigger, s.inputs, s.inputs_z,
        (select ${POLICY_SQL} from pipelines p left join organizations o on o.id = p.org_id where p.id = s.pipeline_id) as policy),
    n as (select pg_notify(${FEED_ENDS_CHANNEL}, case when length(p) > ${MAX_TELL} then '*' else p end)
      from (select string_agg(f.id::text || coalesce(':' || t.id::text, ''), ',') as p from ${ended} as f left join t on t.after_id = f.id
        where f.take_for is not null and f.trigger = 'mllp' and (f.tell or t.id is not null)) g where p is not null)
    select id, after_id, org_id, pipeline_id, pipeline_version, trigger, inputs, inputs_z, policy from t
    union all select null, null, null, null, null, null, null, null, null from n`;
}

/**
 * The ends of several runs as one statement, whatever their number (one text: prepared once per connection): each
 * executions row updated as its run's own end would (node-records.ts `saveResult`), under its claim when it has one;
 * then the compact ones' execution_nodes rows deleted and the others' records upserted, and the runs held after them
 * taken for the processes they ended for (`takeSuccessors`; the statement returns those, and tells their holders). One statement is atomic: no
 * transaction (begin, commit) around it, and the batch is one write to the database's socket instead of one per end.
 * `upsert(executionId, source)` is node-records.ts' upsert of the records of `source` (a recordset, named `r`).
 */
export function endsStatement(rows: EndRow[], upsert: (executionId: SQL, source: SQL) => SQL): SQL {
  const update = sql`update executions x set status = v.status, outputs = v.outputs, outputs_z = decode(v.outputs_z, 'base64'), error = v.error,
    finished_at = v.finished_at, started_at = coalesce(x.started_at, v.started_at), duration_ms = v.duration_ms, data_policy = v.data_policy,
    payloads = v.payloads, input_bytes = v.input_bytes, output_bytes = v.output_bytes, stored_bytes = v.stored_bytes,
    inputs = case when v.keep_input then x.inputs else '{}'::jsonb end, inputs_z = case when v.keep_input then x.inputs_z end,
    node_runs = case when v.records is null then v.node_runs else x.node_runs end,
    claimed_by = case when v.claimed_by is null then x.claimed_by end
    from v where x.id = v.id and (v.claimed_by is null or x.claimed_by = v.claimed_by) returning x.id, x.trigger, v.records, v.take_for, v.tell`;
  return sql`with v as (select * from json_to_recordset(${`[${rows.map(element).join(',')}]`}::json) as v(${END_COLUMNS})),
    e as (${update}),
    d as (delete from execution_nodes n using e where n.execution_id = e.id and e.records is null),
    u as (${upsert(sql`e.id`, sql`e, json_to_recordset(e.records)`)}),
    ${takeSuccessors(sql`e`)}`;
}
