import { sql, type SQL } from 'drizzle-orm';
import type { NodeRun } from '@/engine/execute-node';
import { getNodeType } from '@/engine/nodes';
import { organizations, pipelines } from '@/server/db/schema';
import { DEFAULT_DATA_SETTINGS, type DataPolicy, type PayloadState } from '@/shared/data-settings';
import type { ExecutionStatus } from '@/shared/statuses';

/**
 * What a run keeps (issue 27): the one place that decides, from the policy a run applies and where it is, what
 * its records hold. Every write of node records and results goes through `payloadKeeping` and `keepRecord`
 * (node-records.ts), so a change of how records are batched or written keeps the rule.
 *
 * - `full`: everything, as it happens.
 * - `errors`: while running, only what a resumed run needs (below); at the end, everything if the run failed,
 *   else no payload at all (the trigger's input and the execution's outputs included).
 * - `metadata`: while running, the same; at the end, no payload whatever the outcome.
 * Test-mode runs and step sessions apply `full` whatever the pipeline says (`appliedPolicy`).
 */

/**
 * What a write keeps of node payloads: `all`; `none`; or `resume` — a run still going keeps only the outputs of a
 * node that wrote to an outside system (and its `emit`), so a run picked up again after a crash carries that node
 * instead of writing twice; the run's last write then removes them if the policy keeps nothing.
 */
export type Keeping = 'all' | 'resume' | 'none';

/** The policy a run applies: test-mode runs and step sessions keep everything (they are how a person looks at data). */
export function appliedPolicy(policy: DataPolicy, run: { testMode: boolean; trigger: string }): DataPolicy {
  return run.testMode || run.trigger === 'step' ? 'full' : policy;
}

/** The decision: what a write of a run under `policy` keeps, mid-run (`running`) or at its end (its final status). */
export function payloadKeeping(policy: DataPolicy, phase: 'running' | ExecutionStatus): Keeping {
  if (policy === 'full') return 'all';
  if (phase === 'queued' || phase === 'running') return 'resume';
  return policy === 'errors' && phase === 'failed' ? 'all' : 'none';
}

/**
 * Whether a run's node records stay rows of execution_nodes once it ends: yes when they keep payloads, and for a
 * failed run (what alerts, retries and a person looking at the failure read). The others — a run under `errors` or
 * `metadata` that did not fail — store them compactly in their executions row (node-runs.ts).
 */
export function keepsNodeRows(policy: DataPolicy, status: ExecutionStatus): boolean {
  return payloadKeeping(policy, status) !== 'none' || status === 'failed';
}

/** Whether the execution's own input (the trigger's, e.g. the received HL7 message) stays once the run ends. */
export function keepsInput(policy: DataPolicy, status: ExecutionStatus): boolean {
  return payloadKeeping(policy, status) === 'all';
}

/** The marker an ended run gets. */
export function payloadState(policy: DataPolicy, status: ExecutionStatus): PayloadState {
  return payloadKeeping(policy, status) === 'all' ? 'kept' : 'not_kept';
}

const NONE: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/** Whether a node of this type writes to an outside system (its completed record is what a resumed run carries). */
export function writesOutside(nodeType: string): boolean {
  return getNodeType(nodeType)?.side_effect === 'write';
}

/** A node record as a write under `keeping` stores it (the same object when it keeps everything). */
export function keepRecord<R extends NodeRun & { node_type: string }>(record: R, keeping: Keeping): R {
  if (keeping === 'all') return record;
  if (keeping === 'resume' && record.status === 'completed' && writesOutside(record.node_type)) return { ...record, inputs: NONE };
  const { emit: _emit, ...rest } = record;
  return { ...rest, inputs: NONE, outputs: NONE } as R;
}

/**
 * The policy of a pipeline's runs as SQL (the pipeline's own, else its organization's, else `full`), for the few
 * writes that end a run outside the engine (a run given up, a swept one); `p` and `o` name the pipeline and its
 * organization rows.
 */
export const POLICY_SQL: SQL = sql.raw(`coalesce(p.data_settings->>'policy', o.data_settings->>'policy', '${DEFAULT_DATA_SETTINGS.policy}')`);

/** The same for a query that names the tables (drizzle): the policy a pipeline's production runs apply. */
export const pipelinePolicy = sql<DataPolicy>`coalesce(${pipelines.dataSettings}->>'policy', ${organizations.dataSettings}->>'policy',
  ${DEFAULT_DATA_SETTINGS.policy})`;

/**
 * Applies the policy to executions that ended outside the engine (failed when given up or interrupted, cancelled
 * when a step session expired): under `metadata` their input and any payload still stored go; under `errors` a
 * failed one keeps its input (its node records kept only what a resumed run needed: marked `input`).
 */
export function endedOutsideEngine(ids: SQL): SQL {
  return sql`with ended as (
      select e.id, ${POLICY_SQL} as policy, e.status from executions e
      join pipelines p on p.id = e.pipeline_id join organizations o on o.id = p.org_id
      where e.id in (${ids}) and not e.test_mode and e.trigger <> 'step' and ${POLICY_SQL} <> 'full'),
    nodes as (update execution_nodes n set inputs = '{}'::jsonb, outputs = '{}'::jsonb, payloads_z = null, emit = null, refs = null
      from ended where n.execution_id = ended.id)
    update executions e set data_policy = ended.policy,
      payloads = case when ended.policy = 'errors' and ended.status = 'failed' then 'input' else 'not_kept' end,
      inputs = case when ended.policy = 'errors' and ended.status = 'failed' then e.inputs else '{}'::jsonb end,
      inputs_z = case when ended.policy = 'errors' and ended.status = 'failed' then e.inputs_z end,
      outputs = null, outputs_z = null
    from ended where e.id = ended.id`;
}
