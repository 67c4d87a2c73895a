import type { PipelineDefinition } from '@/shared/pipeline';
import type { GraphNode } from './graph';
import { NodeError, type LogEntry, type NodeContext, type NodeResult, type NodeServices } from './types';

export type NodeStatus = 'pending' | 'running' | 'completed' | 'failed' | 'skipped' | 'simulated';

export interface NodeRun {
  status: NodeStatus;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
  logs: LogEntry[];
  error: { code: string; message: string } | null;
  attempts: number;
  /** The value a pipeline-output node set. */
  emit?: { key: string; value: unknown };
}

export interface NodeRunOptions {
  executionId: string;
  executionInputs: Record<string, unknown>;
  testMode: boolean;
  services: NodeServices;
  signal?: AbortSignal;
  runSubgraph: NodeContext['runSubgraph'];
}

export function emptyRun(status: NodeStatus, error: NodeRun['error'] = null): NodeRun {
  return { status, inputs: {}, outputs: {}, started_at: null, finished_at: null, duration_ms: null, logs: [], error, attempts: 0 };
}

/** Runs one node with its time limit and retry policy; never throws — failures are in the run record. */
export async function executeNode(node: GraphNode, inputs: Record<string, unknown>, opts: NodeRunOptions): Promise<NodeRun> {
  const started = Date.now();
  const logs: LogEntry[] = [];
  const run: NodeRun = { ...emptyRun('running'), inputs, started_at: new Date(started).toISOString(), logs };
  const settings = node.settings;
  const type = node.type;
  for (let attempt = 1; ; attempt++) {
    run.attempts = attempt;
    try {
      if (!type || node.configError) throw new NodeError('INVALID_NODE', `Node "${node.def.id}" has an unknown type or an invalid config.`);
      const result = await withTimeout(settings.timeout_ms, opts.signal, (signal) =>
        type.execute(context(node, opts, signal, logs), inputs, node.config as never),
      );
      run.status = result.simulated ? 'simulated' : 'completed';
      run.outputs = result.outputs;
      if (result.emit) run.emit = result.emit;
      run.error = null;
      break;
    } catch (e) {
      run.error = toError(e);
      const last = attempt >= settings.retry.max_attempts || opts.signal?.aborted;
      logs.push({ level: last ? 'error' : 'warn', message: `attempt ${attempt} failed: ${run.error.message}`, time: new Date().toISOString() });
      if (last) {
        run.status = 'failed';
        break;
      }
      await sleep(settings.retry.backoff_ms * 2 ** (attempt - 1), opts.signal);
    }
  }
  const finished = Date.now();
  run.finished_at = new Date(finished).toISOString();
  run.duration_ms = finished - started;
  return run;
}

function context(node: GraphNode, opts: NodeRunOptions, signal: AbortSignal, logs: LogEntry[]): NodeContext {
  return {
    executionId: opts.executionId,
    nodeId: node.def.id,
    testMode: opts.testMode,
    executionInputs: opts.executionInputs,
    idempotencyKey: `${opts.executionId}:${node.def.id}`,
    signal,
    services: opts.services,
    log: (level, message) => logs.push({ level, message: String(message).slice(0, 4000), time: new Date().toISOString() }),
    runSubgraph: (definition: PipelineDefinition, inputs: Record<string, unknown>) => opts.runSubgraph(definition, inputs),
  };
}

async function withTimeout<T>(ms: number, outer: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(outer?.reason);
  outer?.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(new NodeError('TIMEOUT', `timed out after ${ms} ms`));
      reject(new NodeError('TIMEOUT', `The node did not finish within ${ms} ms.`));
    }, ms);
  });
  try {
    if (outer?.aborted) throw new NodeError('CANCELLED', 'The execution was cancelled.');
    return await Promise.race([work(controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onAbort);
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });
}

function toError(e: unknown): { code: string; message: string } {
  if (e instanceof NodeError) return { code: e.code, message: e.message };
  if (e instanceof Error) return { code: 'NODE_FAILED', message: e.message };
  return { code: 'NODE_FAILED', message: String(e) };
}
