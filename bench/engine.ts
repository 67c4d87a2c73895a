// Engine overhead: a 10-node chain of no-op nodes run by the engine (scheduling, skip and failure rules,
// per-node timing, logs, time limits and retries) against a plain loop calling the same node functions,
// each with a context of its own, same process, same run. Run it with `npx node bench/bundled.mjs engine`, which
// bundles it as production code is built (tsx's keep-names transform would slow both sides).
import { z } from 'zod';
import { buildGraph } from '@/engine/graph';
import { getNodeType } from '@/engine/nodes';
import { runPipeline } from '@/engine/run';
import type { NodeContext, NodeServices, NodeType } from '@/engine/node-type';
import { testNode } from '../tests/support/engine/builders';
import { testServices } from '../tests/support/engine/node-context';
import { PipelineDefinition } from '@/shared/pipeline';

const noop = testNode({
  id: 'noop',
  name: 'noop',
  category: 'data',
  description: 'passes its input on',
  version: '1',
  keywords: [],
  side_effect: 'none',
  documentation: '',
  config: z.object({}),
  inputs: () => [{ name: 'in', type: 'any' }],
  outputs: () => [{ name: 'out', type: 'any' }],
  async execute(_ctx, inputs) {
    return { outputs: { out: inputs.in } };
  },
}) as unknown as NodeType;
const registry = (id: string) => (id === 'noop' ? noop : getNodeType(id));

// BENCH_NODE=jsonata-transform measures the same chain with a light real node (`$` expression) instead of no-ops
const kind = process.env.BENCH_NODE ?? 'noop';
const nodes = [
  { id: 'in', type: 'manual-trigger' },
  ...Array.from({ length: 8 }, (_, i) => ({ id: `n${i}`, type: kind, config: kind === 'noop' ? {} : { expression: '$' } })),
  { id: 'out', type: 'pipeline-output' },
];
const port = (id: string, dir: 'in' | 'out') => (kind === 'noop' ? (dir === 'in' ? 'in' : 'out') : dir === 'in' ? 'input' : 'output');
const ids = nodes.map((n) => n.id);
const def = PipelineDefinition.parse({
  nodes,
  connections: ids.slice(1).map((id, i) => ({
    source: ids[i]!,
    source_port: i === 0 ? 'event' : port(ids[i]!, 'out'),
    target: id,
    target_port: id === 'out' ? 'value' : port(id, 'in'),
  })),
});
const services: NodeServices = testServices({ fetch });
const graph = buildGraph(def, registry);

async function plainLoop(inputs: Record<string, unknown>) {
  let value: unknown = inputs;
  const outputs: Record<string, unknown> = {};
  for (const id of ids) {
    const node = graph.nodes.get(id)!;
    const ctx = {
      executionId: 'x',
      nodeId: id,
      testMode: false,
      executionInputs: inputs,
      idempotencyKey: `x:${id}`,
      signal: new AbortController().signal,
      services,
      log() {},
      runSubgraph: async () => ({}),
      outputRead: () => true,
    } as NodeContext;
    const r = await node.type!.execute(ctx, id === 'in' ? {} : id === 'out' ? { value } : { [port(id, 'in')]: value }, node.config as never);
    value = r.outputs[port(id, 'out')] ?? r.outputs.event;
    if (r.emit) outputs[r.emit.key] = r.emit.value;
  }
  return outputs;
}

async function measure(label: string, n: number, f: () => Promise<unknown>) {
  for (let i = 0; i < 500; i++) await f();
  const t = performance.now();
  for (let i = 0; i < n; i++) await f();
  const ms = performance.now() - t;
  return { label, perSecond: (n / ms) * 1000, usPerRun: (ms * 1000) / n };
}

const N = Number(process.env.BENCH_ENGINE_RUNS ?? 20000);
const ROUNDS = 5;
const results: { label: string; perSecond: number; usPerRun: number }[] = [];
for (let round = 0; round < ROUNDS; round++) {
  results.push(await measure('plain loop', N, () => plainLoop({ n: 1 })));
  results.push(await measure('engine', N, () => runPipeline(def, { executionId: 'x', inputs: { n: 1 }, testMode: false, registry, services })));
}
const best = (label: string) => Math.min(...results.filter((r) => r.label === label).map((r) => r.usPerRun));
const loop = best('plain loop');
const engine = best('engine');
console.log(`\nEngine overhead, 10-node chain of ${kind} nodes, best of ${ROUNDS} rounds of ${N} runs`);
console.log(`plain loop: ${loop.toFixed(1)} µs/run   engine: ${engine.toFixed(1)} µs/run   ratio ${(engine / loop).toFixed(2)} (target <= 2)`);
console.log(JSON.stringify({ bench: 'engine', node: kind, plain_us: loop, engine_us: engine, ratio: engine / loop }));
