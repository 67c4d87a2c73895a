import type { NodeRun } from '@/engine/execute-node';
import { descendants } from '@/engine/graph';
import type { PortSpec } from '@/engine/node-descriptor';
import { getNodeType } from '@/engine/nodes';
import { planOf } from '@/engine/plan';
import { AppError } from '@/server/errors';
import type { ServiceContext } from '../context';
import { findPipelineState } from '../pipelines/find';
import { loadDefinition } from './runnable-pipeline';
import { toSyncResult } from './execute';
import { findExecutionRow } from './get-execution';
import { readNodeRecords } from './node-records';
import { runExecution } from './run-execution';
import { toNodeRun } from './execution-views';
import { startExecution } from './start-execution';

export interface RetryInput {
  execution_id: string;
  node_id: string;
  inputs?: Record<string, unknown>;
}

/**
 * A new execution linked to the original (retry_of), on the version the original ran: `node_id` and
 * everything downstream run again; every other node keeps its stored run. `inputs` replace the inputs of
 * `node_id` (of the whole execution when it is the trigger).
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
  if (input.inputs && !target.type?.trigger) refuseInputs(input.node_id, target.inputs, input.inputs);
  const redo = descendants(graph, input.node_id);
  const stored = await readNodeRecords(ctx.db, original.id);
  const carried: Record<string, NodeRun> = {};
  for (const row of stored) if (!redo.has(row.nodeId)) carried[row.nodeId] = toNodeRun(row);

  const isTrigger = Boolean(target.type?.trigger);
  const started = await startExecution(ctx.db, {
    orgId: ctx.principal.orgId,
    pipelineId: original.pipelineId,
    pipelineVersion: original.pipelineVersion,
    trigger: 'retry',
    testMode: original.testMode,
    inputs: isTrigger && input.inputs ? input.inputs : original.inputs,
    retryOf: original.id,
    status: 'running',
  });
  const inputs = isTrigger && input.inputs ? input.inputs : original.inputs;
  const result = await runExecution(ctx.db, started.id, {
    carried,
    inputOverrides: !isTrigger && input.inputs ? { [input.node_id]: input.inputs } : undefined,
    inline: { orgId: ctx.principal.orgId, definition: def, inputs, testMode: original.testMode, startedAt: started.startedAt! },
  });
  return { ...toSyncResult(started.id, result!), retry_of: original.id };
}

/**
 * `inputs` replace the node's inputs whole, so they must name only its input ports and give every
 * required one: `{}` for a node that needs an input cannot be meant, and is refused rather than ignored.
 */
function refuseInputs(nodeId: string, ports: PortSpec[], inputs: Record<string, unknown>): void {
  const known = new Set(ports.map((p) => p.name));
  const problems = [
    ...Object.keys(inputs).filter((k) => !known.has(k)).map((k) => ({ path: `inputs.${k}`, message: `node "${nodeId}" has no input "${k}"` })),
    ...ports.filter((p) => !p.optional && !(p.name in inputs)).map((p) => ({ path: `inputs.${p.name}`, message: `required input of node "${nodeId}"` })),
  ];
  if (problems.length) {
    const names = ports.map((p) => `"${p.name}"`).join(', ') || 'none';
    throw new AppError('VALIDATION_FAILED', `The inputs replace node "${nodeId}"'s inputs whole; its inputs are ${names}: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}.`, problems);
  }
}
