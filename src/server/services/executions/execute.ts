import type { RunResult } from '@/engine/run';
import { AppError } from '@/server/errors';
import type { ServiceContext } from '../context';
import { refuseInvalid } from './runnable-pipeline';
import { nodeResults } from './execution-views';
import { runExecution } from './run-execution';
import { startOnCurrent } from './start-on-current';

export interface ExecuteInput {
  pipeline_id: string;
  inputs: Record<string, unknown>;
  async: boolean;
  test_mode: boolean;
  /** "Run to here" (test runs, sync only): only this node and its upstream run; the rest is skipped (not_requested). */
  run_to_node?: string;
}

/**
 * POST /api/execute. A real run needs a deployed pipeline; test mode works on any. Sync waits for the
 * result; async answers at once and a worker runs it (row and queue job written in one transaction).
 */
export async function execute(ctx: ServiceContext, input: ExecuteInput) {
  if (input.run_to_node !== undefined && (!input.test_mode || input.async)) {
    const field = !input.test_mode ? 'test_mode' : 'async';
    const message = 'run_to_node runs a test run synchronously: set test_mode: true and async: false (or leave run_to_node out).';
    throw new AppError('VALIDATION_FAILED', message, [{ path: field, message: `must be ${field === 'async' ? 'false' : 'true'} with run_to_node` }]);
  }
  // a person running it in the web app's editor, or an API client
  const trigger = input.async ? 'async' : ctx.channel === 'app' ? 'editor' : 'api';
  if (input.async && !ctx.queue) throw new AppError('INTERNAL', 'No queue is configured for asynchronous executions.');
  const { pipeline, started } = await startOnCurrent(ctx, input.pipeline_id, {
    requireDeployed: !input.test_mode,
    execution: (p) =>
      input.run_to_node === undefined || p.graph.nodes.has(input.run_to_node)
        ? {
            orgId: ctx.principal.orgId,
            pipelineId: p.id,
            pipelineVersion: p.version,
            testMode: input.test_mode,
            inputs: input.inputs,
            trigger,
            status: input.async ? 'queued' : 'running',
          }
        : undefined,
    refuse: (p) => {
      if (input.run_to_node !== undefined && !p.graph.nodes.has(input.run_to_node)) {
        throw new AppError('NODE_NOT_FOUND', `Pipeline ${p.id} (version ${p.version}) has no node "${input.run_to_node}" to run to.`);
      }
      if (!input.test_mode && p.status !== 'deployed') {
        throw new AppError('PIPELINE_NOT_DEPLOYED', `Pipeline ${p.id} is not deployed: deploy it, or run it with test_mode.`);
      }
      refuseInvalid(p);
    },
    queue: input.async ? ctx.queue : undefined,
  });
  if (input.async) return { execution_id: started.id, status: 'running' as const };
  const result = await runExecution(ctx, started.id, {
    inline: {
      orgId: ctx.principal.orgId,
      pipelineId: pipeline.id,
      trigger,
      definition: pipeline.definition,
      inputs: input.inputs,
      testMode: input.test_mode,
      startedAt: started.startedAt!,
      policy: started.policy,
    },
    runTo: input.run_to_node,
  });
  return toSyncResult(started.id, result!);
}

/** The synchronous answer, from the run itself (nothing to read back). */
export function toSyncResult(executionId: string, result: RunResult) {
  return {
    execution_id: executionId,
    status: result.status,
    outputs: result.outputs,
    node_results: nodeResults(Object.entries(result.nodes).map(([id, n]) => ({ node_id: id, status: n.status, duration_ms: n.duration_ms, reason: n.reason }))),
    ...(result.error ? { error: result.error } : {}),
  };
}
