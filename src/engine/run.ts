import type { PipelineDefinition } from '@/shared/pipeline';
import { emptyRun, executeNode, type NodeRun, type NodeRunOptions } from './execute-node';
import { buildGraph, descendants, type Graph, type Registry } from './graph';
import type { NodeServices } from './types';
import { validateDefinition } from './validate';

export interface RunOptions {
  executionId: string;
  inputs: Record<string, unknown>;
  testMode: boolean;
  registry: Registry;
  services: NodeServices;
  signal?: AbortSignal;
  /** Runs taken over as they are (retry: the nodes upstream of the retried one). */
  carried?: Record<string, NodeRun>;
  /** Input values that replace what upstream gives, per node (retry with `inputs`). */
  inputOverrides?: Record<string, Record<string, unknown>>;
  onNodeStart?(nodeId: string, inputs: Record<string, unknown>): void | Promise<void>;
  onNodeEnd?(nodeId: string, run: NodeRun): void | Promise<void>;
}

export interface RunResult {
  status: 'completed' | 'failed';
  outputs: Record<string, unknown>;
  nodes: Record<string, NodeRun>;
  error: { node_id: string | null; code: string; message: string } | null;
}

const SETTLED = new Set(['completed', 'simulated', 'skipped', 'failed']);

/** What a node receives: the values its connected upstream ports gave. `wait` until all upstreams settled. */
export function gatherInputs(graph: Graph, nodeId: string, runs: Record<string, NodeRun>) {
  const inputs: Record<string, unknown> = {};
  let upstreamFailed: string | null = null;
  for (const c of graph.incoming.get(nodeId) ?? []) {
    const source = runs[c.source];
    if (!source || !SETTLED.has(source.status)) return { wait: true as const };
    if (source.status === 'failed') upstreamFailed = c.source;
    if ((source.status === 'completed' || source.status === 'simulated') && c.source_port in source.outputs) {
      inputs[c.target_port] = source.outputs[c.source_port];
    }
  }
  return { wait: false as const, inputs, upstreamFailed };
}

/** A node whose required inputs got nothing (a branch not taken) is skipped, as is one that got no input at all. */
export function shouldSkip(graph: Graph, nodeId: string, inputs: Record<string, unknown>): boolean {
  const node = graph.nodes.get(nodeId)!;
  if (node.type?.trigger) return false;
  const connected = new Set((graph.incoming.get(nodeId) ?? []).map((c) => c.target_port));
  if (connected.size === 0) return true; // unreachable from the trigger
  if (node.inputs.some((p) => !p.optional && connected.has(p.name) && !(p.name in inputs))) return true;
  return Object.keys(inputs).length === 0;
}

/**
 * Runs a pipeline: every node once its upstreams have settled, independent branches concurrently. The
 * first failure stops new nodes from starting: its downstream fails (UPSTREAM_FAILED), the rest is skipped.
 */
export async function runPipeline(def: PipelineDefinition, opts: RunOptions): Promise<RunResult> {
  const report = validateDefinition(def, opts.registry);
  if (!report.valid) {
    const first = report.errors[0]!;
    const message = `The pipeline is not valid: ${report.errors.map((e) => (e.node_id ? `${e.node_id}: ${e.message}` : e.message)).join('; ')}`;
    return { status: 'failed', outputs: {}, nodes: {}, error: { node_id: first.node_id, code: 'INVALID_PIPELINE', message } };
  }
  const graph = buildGraph(def, opts.registry);
  const runs: Record<string, NodeRun> = { ...(opts.carried ?? {}) };
  let failure = null as RunResult['error'];
  const running = new Map<string, Promise<void>>();

  const nodeOptions: NodeRunOptions = {
    executionId: opts.executionId,
    executionInputs: opts.inputs,
    testMode: opts.testMode,
    services: opts.services,
    signal: opts.signal,
    runSubgraph: async (body, inputs) => {
      const sub = await runPipeline(body, { ...opts, inputs, carried: undefined, inputOverrides: undefined, onNodeStart: undefined, onNodeEnd: undefined });
      if (sub.status === 'failed') throw new Error(sub.error?.message ?? 'the body failed');
      return sub.outputs;
    },
  };

  const start = (id: string, inputs: Record<string, unknown>) => {
    runs[id] = { ...emptyRun('running'), inputs };
    running.set(
      id,
      (async () => {
        await opts.onNodeStart?.(id, inputs);
        const run = await executeNode(graph.nodes.get(id)!, inputs, nodeOptions);
        runs[id] = run;
        if (run.status === 'failed' && !failure) {
          const type = graph.nodes.get(id)!.def.type;
          failure = { node_id: id, code: run.error!.code, message: `Node "${id}" (${type}) failed: ${run.error!.message}` };
        }
        await opts.onNodeEnd?.(id, run);
        running.delete(id);
      })(),
    );
  };

  for (;;) {
    let progressed = false;
    for (const id of graph.nodes.keys()) {
      if (runs[id] || failure) continue;
      const gathered = gatherInputs(graph, id, runs);
      if (gathered.wait) continue;
      const inputs = { ...gathered.inputs, ...(opts.inputOverrides?.[id] ?? {}) };
      progressed = true;
      if (gathered.upstreamFailed) {
        runs[id] = emptyRun('failed', { code: 'UPSTREAM_FAILED', message: `Upstream node "${gathered.upstreamFailed}" failed.` });
        await opts.onNodeEnd?.(id, runs[id]);
      } else if (!opts.inputOverrides?.[id] && shouldSkip(graph, id, inputs)) {
        runs[id] = { ...emptyRun('skipped'), inputs };
        await opts.onNodeEnd?.(id, runs[id]);
      } else {
        start(id, inputs);
      }
    }
    if (running.size > 0) await Promise.race(running.values());
    else if (!progressed) break;
  }

  for (const id of graph.nodes.keys()) {
    if (runs[id]) continue;
    const downstreamOfFailure = failure?.node_id ? descendants(graph, failure.node_id).has(id) : false;
    runs[id] = downstreamOfFailure
      ? emptyRun('failed', { code: 'UPSTREAM_FAILED', message: `Upstream node "${failure!.node_id}" failed.` })
      : emptyRun('skipped');
    await opts.onNodeEnd?.(id, runs[id]);
  }
  const outputs: Record<string, unknown> = {};
  for (const run of Object.values(runs)) if (run.emit) outputs[run.emit.key] = run.emit.value;
  return { status: failure ? 'failed' : 'completed', outputs, nodes: runs, error: failure };
}
