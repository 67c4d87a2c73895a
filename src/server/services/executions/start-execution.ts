import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { jsonText } from '@/server/db/json';
import { rowsOf } from '@/server/db/rows';
import { AppError } from '@/server/errors';
import { organizations, pipelines } from '@/server/db/schema';
import type { DataPolicy } from '@/shared/data-settings';
import { pipelinePolicy, POLICY_SQL } from './data-policy';
import { packInputs } from './stored-inputs';

export const MAX_CONCURRENT_EXECUTIONS = 100;

export interface NewExecution {
  orgId: string;
  pipelineId: string;
  pipelineVersion: number;
  trigger: string;
  testMode: boolean;
  inputs: Record<string, unknown>;
  retryOf?: string | null;
  status: 'queued' | 'running';
  /**
   * For a queued execution: wake every process working the queue at commit (NOTIFY; the default), or none, when
   * the caller's own process takes the job (see Queue.takeOne).
   */
  notify?: boolean;
  /**
   * For a queued execution this process runs itself with no queue job (the MLLP feed's, startQueuedExecutions): its
   * instance id (Queue.instanceId), written into the row as its claim (queue/claims.ts).
   */
  claimedBy?: string;
  /** For the MLLP feed's admission (startQueuedExecutions): the execution's id, chosen by the caller. */
  id?: string;
  /** The run this one starts after (executions.after_id: an MLLP connection's message before; queue/held-runs.ts). */
  afterId?: string;
  /**
   * For startQueuedExecutions: `afterId` is an execution of the same call, admitted before this one in its statement;
   * when it was not admitted, neither is this one (AFTER_REFUSED).
   */
  afterInBatch?: boolean;
}

/**
 * Writes the execution row if the organization has a free slot (at most 100 queued or running, step
 * sessions aside): one call of the `start_execution` SQL function, which takes one of the organization's
 * slot rows (FOR UPDATE SKIP LOCKED), so two processes cannot both admit the 101st and admissions never
 * wait for each other. `before` runs first in the same transaction (the async path enqueues its job
 * there, under the id chosen here), so row and job exist together or not at all.
 */
export async function startExecution<T = void>(db: Db, e: NewExecution, before?: (tx: Db, executionId: string) => Promise<T>): Promise<Started<T>> {
  return (await start(db, e, before))!;
}

/**
 * The same, if `e.pipelineVersion` is still the version the run uses — the deployed version of a deployed pipeline
 * when `requireDeployed` (a real run), else the latest saved — checked in the same statement (migration 0019);
 * else null, and nothing is written. For a caller that planned
 * the run on the version it saw last, so it need not read the pipeline first.
 */
export function startIfCurrent<T = void>(
  db: Db,
  e: NewExecution,
  requireDeployed: boolean,
  before?: (tx: Db, executionId: string) => Promise<T>,
): Promise<Started<T> | null> {
  return start(db, e, before, { requireDeployed });
}

/** A queued admission refused because its pipeline is no longer deployed at the version given (startQueuedExecutions). */
export const PIPELINE_CHANGED = 'changed';

/** A queued admission refused because the execution it starts after, in the same statement, was not admitted. */
export const AFTER_REFUSED = 'after_refused';

/** What startQueuedExecutions gives for each execution. */
export type QueuedStart = { id: string; policy: DataPolicy } | AppError | typeof PIPELINE_CHANGED | typeof AFTER_REFUSED;

/**
 * Admits several queued executions of deployed pipelines in one statement (the MLLP feed's batch, inside its
 * transaction): `start_execution_if_current` once per execution, in order, each taking a free slot of its organization
 * as one call does, if its pipeline is still deployed at `pipelineVersion` (else PIPELINE_CHANGED, nothing written);
 * the CONCURRENCY_LIMIT refusal of one that found no slot free (the others start); the started ones' data policy,
 * read by the same statement. An execution with `claimedBy` is written claimed by that process (no queue job); one
 * with `afterId` names the run it starts after, and is refused (AFTER_REFUSED) when that run is one of this call's and
 * was not admitted (`afterInBatch`, migration 0033).
 */
export async function startQueuedExecutions(db: Db, list: NewExecution[]): Promise<QueuedStart[]> {
  if (list.length === 0) return [];
  const rows = list.map((e) => {
    const packed = packInputs(e.inputs);
    return {
      id: e.id ?? randomUUID(),
      org: e.orgId,
      pipeline: e.pipelineId,
      version: e.pipelineVersion,
      trigger: e.trigger,
      // a deflated input goes as base64 (this statement's parameter only), stored as bytes by decode()
      inputs: packed.z ? {} : e.inputs,
      z: packed.z ? packed.z.toString('base64') : null,
      notify: e.notify !== false,
      claimed: e.claimedBy,
      after: e.afterId,
      after_in_batch: e.afterInBatch === true,
    };
  });
  const result = await db.execute(sql`select m.id, s.outcome, case when s.outcome = 'started' then (select ${POLICY_SQL} from pipelines p
      left join organizations o on o.id = p.org_id where p.id = m.pipeline) end as policy
    from jsonb_to_recordset(${jsonText(rows)}::jsonb)
    as m(id uuid, org text, pipeline uuid, version integer, trigger text, inputs jsonb, z text, notify boolean, claimed uuid, after uuid,
      after_in_batch boolean)
    cross join lateral start_execution_after(m.id, m.org, m.pipeline, m.version, true, 'queued'::text, m.trigger, false, null::uuid,
      m.inputs, null::timestamptz, ${MAX_CONCURRENT_EXECUTIONS}::integer, m.notify, m.claimed, decode(m.z, 'base64'), m.after, m.after_in_batch) s`);
  const outcomes = new Map(rowsOf<{ id: string; outcome: string; policy: DataPolicy | null }>(result).map((r) => [r.id, r]));
  return rows.map((r) => {
    const o = outcomes.get(r.id);
    if (o?.outcome === 'started') return { id: r.id, policy: o.policy! };
    if (o?.outcome === PIPELINE_CHANGED || o?.outcome === AFTER_REFUSED) return o.outcome;
    return concurrencyLimit();
  });
}

const concurrencyLimit = () =>
  new AppError('CONCURRENCY_LIMIT', `At most ${MAX_CONCURRENT_EXECUTIONS} executions may run at once per organization; wait for some to finish.`);

export interface Started<T = void> {
  id: string;
  startedAt: Date | null;
  extra: T | undefined;
  /** A running start's pipeline data policy, read by its admission (a run inside the request need not read it again); null when queued. */
  policy: DataPolicy | null;
}

/** Thrown inside the transaction of an admission guarded by the pipeline's version, to roll back what `before` wrote. */
class PipelineChanged extends Error {}

async function start<T>(
  db: Db,
  e: NewExecution,
  before?: (tx: Db, executionId: string) => Promise<T>,
  guard?: { requireDeployed: boolean },
): Promise<Started<T> | null> {
  const id = randomUUID();
  const startedAt = e.status === 'running' ? new Date() : null;
  // the arguments of start_execution(_if_current), as fragments of one statement
  const target = sql`${id}::uuid, ${e.orgId}, ${e.pipelineId}, ${e.pipelineVersion}`;
  const input = packInputs(e.inputs);
  const run = sql`${e.status}, ${e.trigger}, ${e.testMode}, ${e.retryOf ?? null}, ${input.json}::jsonb`;
  const args = sql`${run}, ${startedAt?.toISOString() ?? null}::timestamptz, ${MAX_CONCURRENT_EXECUTIONS}, ${e.notify !== false}::boolean,
    ${e.claimedBy ?? null}::uuid, ${input.z}::bytea`;
  // a run started running (inside its request) applies its pipeline's data policy next: read by the same statement,
  // not by one of its own; a queued one's worker reads it with the row (null here)
  const policy =
    e.status === 'running'
      ? sql`(select ${pipelinePolicy} from ${pipelines} join ${organizations} on ${organizations.id} = ${pipelines.orgId}
    where ${pipelines.id} = ${e.pipelineId}) as policy`
      : sql`null as policy`;
  const admit = async (q: Db): Promise<DataPolicy | null> => {
    const result = guard
      ? await q.execute(sql`select outcome, ${policy} from start_execution_if_current(${target}, ${guard.requireDeployed}, ${args})`)
      : await q.execute(sql`select 'started' as outcome, ${policy} from start_execution(${target}, ${args})`);
    const row = rowsOf<{ outcome: string; policy: DataPolicy | null }>(result)[0];
    const outcome = row?.outcome ?? 'full';
    if (outcome === 'changed') throw new PipelineChanged();
    if (outcome !== 'started') throw concurrencyLimit();
    return row!.policy;
  };
  try {
    if (!before) return { id, startedAt, extra: undefined, policy: await admit(db) };
    return await db.transaction(async (tx) => {
      const extra = await before(tx, id);
      return { id, startedAt, extra, policy: await admit(tx) };
    });
  } catch (err) {
    if (err instanceof PipelineChanged) return null;
    throw err;
  }
}
