import type { NodeRun } from '@/engine/execute-node';
import { descendants } from '@/engine/graph';
import type { PortSpec } from '@/engine/node-descriptor';
import { getNodeType } from '@/engine/nodes';
import { planOf } from '@/engine/plan';
import { AppError } from '@/server/errors';
import type { PayloadState } from '@/shared/data-settings';
import type { ServiceContext } from '../context';
import { findPipelineState } from '../pipelines/find';
import { loadDefinition } from './runnable-pipeline';
import { toSyncResult } from './execute';
import { findExecutionRow } from './get-execution';
import { readNodeRecords } from './node-records';
import { runExecution } from './run-execution';
import { toNodeRun } from './execution-views';
import { startExecution } from './start-execution';
import { retryRoot } from './retry-root';

export interface RetryInput {
  execution_id: string;
  node_id: string;
  inputs?: Record<string, unknown>;
}

/**
 * A new execution linked to the original (retry_of), on the version the original ran: `node_id` and
 * everything downstream run again; every other node keeps its stored run. `node_id` takes the inputs it is
 * given now (from the stored upstream runs); the ports named in `inputs` replace theirs, and absent or
 * empty `inputs` change nothing. When `node_id` is the trigger, the keys named replace those of the
 * execution's inputs.
 */
export async function retryExecution(ctx: ServiceContext, input: RetryInput) {
  const original = await findExecutionRow(ctx, input.execution_id);
  const pipeline = await findPipelineState(ctx, original.pipelineId);
  if (!original.testMode && pipeline.status !== 'deployed') {
    throw new AppError('PIPELINE_NOT_DEPLOYED', `Pipeline ${pipeline.id} is not deployed: deploy it to retry a real execution.`);
  }
  const def = await loadDefinition(ctx.db, original.pipelineId, original.pipelineVersion);
  const { graph } = planOf(def, getNodeType);
  const target = graph.nodes.get(input.node_id);
  if (!target) throw new AppError('NODE_NOT_FOUND', `Pipeline version ${original.pipelineVersion} has no node "${input.node_id}".`);
  const given = input.inputs && Object.keys(input.inputs).length > 0 ? input.inputs : undefined;
  if (given && !target.type?.trigger) refuseUnknownPorts(input.node_id, target.inputs, given);
  refuseWithoutPayloads(original, input.node_id, Boolean(target.type?.trigger), given !== undefined);
  const redo = descendants(graph, input.node_id);
  const stored = await readNodeRecords(ctx.db, original.id);
  const carried: Record<string, NodeRun> = {};
  for (const row of stored) if (!redo.has(row.nodeId)) carried[row.nodeId] = toNodeRun(row);

  const isTrigger = Boolean(target.type?.trigger);
  const inputs = isTrigger && given ? { ...asObject(original.inputs), ...given } : original.inputs;
  const started = await startExecution(ctx.db, {
    orgId: ctx.principal.orgId,
    pipelineId: original.pipelineId,
    pipelineVersion: original.pipelineVersion,
    trigger: 'retry',
    testMode: original.testMode,
    inputs,
    retryOf: original.id,
    status: 'running',
  });
  const result = await runExecution(ctx, started.id, {
    carried,
    idempotencyId: await retryRoot(ctx.db, original),
    inputOverrides: !isTrigger && given ? { [input.node_id]: given } : undefined,
    inline: {
      orgId: ctx.principal.orgId,
      pipelineId: original.pipelineId,
      trigger: 'retry',
      definition: def,
      inputs,
      testMode: original.testMode,
      startedAt: started.startedAt!,
      policy: started.policy,
    },
  });
  return { ...toSyncResult(started.id, result!), retry_of: original.id };
}

/**
 * A retry takes the stored outputs of the nodes it does not run again, and the trigger's input when it runs the
 * trigger: a run whose data policy did not keep them cannot give them (409 PAYLOADS_NOT_KEPT, saying what still works).
 */
function refuseWithoutPayloads(
  original: { id: string; payloads: PayloadState; dataPolicy: string | null },
  nodeId: string,
  isTrigger: boolean,
  given: boolean,
) {
  if (original.payloads === 'kept') return;
  if (isTrigger && (given || original.payloads === 'input')) return; // the trigger's input is given, or was kept
  const why =
    original.payloads === 'pruned'
      ? 'its inputs and outputs were removed by the retention settings'
      : original.payloads === 'input'
        ? "only the trigger's input was kept"
        : `its inputs and outputs were not kept (data policy ${original.dataPolicy ?? 'unknown'})`;
  const instead =
    original.payloads === 'input'
      ? 'Retry from the trigger node instead, which reruns the pipeline on the kept input.'
      : 'Retry from the trigger node with `inputs` (the message to run again), or start a new run with POST /api/execute.';
  throw new AppError('PAYLOADS_NOT_KEPT', `Execution ${original.id} cannot be retried from node "${nodeId}": ${why}. ${instead}`);
}

const asObject = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** `inputs` name ports of the node: a name it does not have is a mistake, refused rather than ignored. */
function refuseUnknownPorts(nodeId: string, ports: PortSpec[], inputs: Record<string, unknown>): void {
  const known = new Set(ports.map((p) => p.name));
  const problems = Object.keys(inputs)
    .filter((k) => !known.has(k))
    .map((k) => ({ path: `inputs.${k}`, message: `node "${nodeId}" has no input "${k}"` }));
  if (problems.length) {
    const names = ports.map((p) => `"${p.name}"`).join(', ') || 'none';
    throw new AppError(
      'VALIDATION_FAILED',
      `Node "${nodeId}" has the inputs ${names}: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}.`,
      problems,
    );
  }
}
