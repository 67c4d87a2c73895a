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

interface Plan {
  report: ReturnType<typeof validateDefinition>;
  graph: Graph;
}

/** Validation and graph of a definition object, made once per object (executions reuse them). */
const plans = new WeakMap<Registry, WeakMap<PipelineDefinition, Plan>>();

export function planOf(def: PipelineDefinition, registry: Registry): Plan {
  let byDef = plans.get(registry);
  if (!byDef) plans.set(registry, (byDef = new WeakMap()));
  let plan = byDef.get(def);
  if (!plan) {
    const report = validateDefinition(def, registry);
    plan = { report, graph: buildGraph(def, registry) };
    byDef.set(def, plan);
  }
  return plan;
}

/**
 * Runs a pipeline: every node once its upstreams have settled, independent branches concurrently. The
 * first failure stops new nodes from starting: its downstream fails (UPSTREAM_FAILED), the rest is skipped.
 */
export async function runPipeline(def: PipelineDefinition, opts: RunOptions): Promise<RunResult> {
  const { report, graph } = planOf(def, opts.registry);
  if (!report.valid) {
    const first = report.errors[0]!;
    const message = `The pipeline is not valid: ${report.errors.map((e) => (e.node_id ? `${e.node_id}: ${e.message}` : e.message)).join('; ')}`;
    return { status: 'failed', outputs: {}, nodes: {}, error: { node_id: first.node_id, code: 'INVALID_PIPELINE', message } };
  }
  const runs: Record<string, NodeRun> = { ...(opts.carried ?? {}) };
  let failure = null as RunResult['error'];
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

  // upstream connections each node still waits for; a node is decided when its count reaches zero
  const waiting = new Map<string, number>();
  for (const id of graph.nodes.keys()) waiting.set(id, graph.incoming.get(id)?.length ?? 0);
  const ready: string[] = [];
  const settle = (id: string) => {
    for (const c of graph.outgoing.get(id) ?? []) {
      const left = waiting.get(c.target)! - 1;
      waiting.set(c.target, left);
      if (left === 0 && !runs[c.target]) ready.push(c.target);
    }
  };
  for (const id of graph.nodes.keys()) if (waiting.get(id) === 0 && !runs[id]) ready.push(id);
  for (const id of Object.keys(runs)) if (graph.nodes.has(id)) settle(id);

  const running = new Set<Promise<void>>();
  const start = (id: string, inputs: Record<string, unknown>) => {
    runs[id] = { ...emptyRun('running'), inputs };
    const task = (async () => {
      await opts.onNodeStart?.(id, inputs);
      const run = await executeNode(graph.nodes.get(id)!, inputs, nodeOptions);
      runs[id] = run;
      if (run.status === 'failed' && !failure) {
        const type = graph.nodes.get(id)!.def.type;
        failure = { node_id: id, code: run.error!.code, message: `Node "${id}" (${type}) failed: ${run.error!.message}` };
      }
      await opts.onNodeEnd?.(id, run);
      settle(id);
    })();
    running.add(task);
    void task.finally(() => running.delete(task));
  };

  for (;;) {
    while (ready.length > 0 && !failure) {
      const id = ready.shift()!;
      const gathered = gatherInputs(graph, id, runs);
      if (gathered.wait) continue;
      const inputs = { ...gathered.inputs, ...(opts.inputOverrides?.[id] ?? {}) };
      if (gathered.upstreamFailed) {
        runs[id] = emptyRun('failed', { code: 'UPSTREAM_FAILED', message: `Upstream node "${gathered.upstreamFailed}" failed.` });
      } else if (!opts.inputOverrides?.[id] && shouldSkip(graph, id, inputs)) {
        runs[id] = { ...emptyRun('skipped'), inputs };
      } else {
        start(id, inputs);
        continue;
      }
      await opts.onNodeEnd?.(id, runs[id]);
      settle(id);
    }
    if (running.size === 0) break;
    await Promise.race(running);
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
