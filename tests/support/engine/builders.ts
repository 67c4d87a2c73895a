import { testServices } from './node-context';
import { z } from 'zod';
import { PipelineDefinition } from '@/shared/pipeline';
import { getNodeType } from '@/engine/nodes';
import type { Registry } from '@/engine/graph';
import type { NodeDescriptor, PortSpec } from '@/engine/node-descriptor';
import { NodeError } from '@/engine/node-error';
import type { NodeImplementation, NodeType } from '@/engine/node-type';

type TestNodeSpec<C extends z.ZodType> = Omit<NodeDescriptor<C>, 'ports' | 'example' | 'errors'> &
  NodeImplementation<C> & { inputs(): PortSpec[]; outputs(): PortSpec[] };

/** A node type for engine tests: fixed ports, no example or error list. */
export function testNode<C extends z.ZodType>({ inputs, outputs, ...rest }: TestNodeSpec<C>): NodeType<C> {
  return { ...rest, example: {} as z.input<C>, errors: {}, ports: () => ({ inputs: inputs(), outputs: outputs() }) };
}

/**
 * Tiny builders for engine tests: `graph('in>a', 'a>out')` connects default ports; `n(id, type, config)`.
 * Test node types: `inc` (json → json, adds 1 to `value.n`), `boom` (always fails), `slow` (waits `ms`),
 * `split` (fires `even` or `odd`), `upper` (text → text), `write` (a write node that records what it sent).
 */
export const sent: unknown[] = [];

const inc = testNode({
  id: 'inc',
  name: 'inc',
  category: 'data',
  description: 'adds one',
  version: '1',
  keywords: [],
  side_effect: 'none',
  documentation: 'test',
  config: z.object({ by: z.number().default(1) }),
  inputs: () => [{ name: 'in', type: 'any' }],
  outputs: () => [{ name: 'out', type: 'json' }],
  async execute(_ctx, inputs, config) {
    const v = inputs.in as { n?: number };
    return { outputs: { out: { n: (v?.n ?? 0) + config.by } } };
  },
});
const boom = testNode({
  id: 'boom',
  name: 'boom',
  category: 'data',
  description: 'fails',
  version: '1',
  keywords: [],
  side_effect: 'none',
  documentation: 'test',
  config: z.object({ times: z.number().default(Infinity) }),
  inputs: () => [{ name: 'in', type: 'any' }],
  outputs: () => [{ name: 'out', type: 'json' }],
  async execute(ctx, inputs, config) {
    const key = `boom:${ctx.executionId}:${ctx.nodeId}`;
    const count = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, count);
    if (count <= config.times) throw new NodeError('BOOM', `boom #${count}`);
    return { outputs: { out: inputs.in } };
  },
});
export const attempts = new Map<string, number>();
const slow = testNode({
  id: 'slow',
  name: 'slow',
  category: 'data',
  description: 'waits',
  version: '1',
  keywords: [],
  side_effect: 'none',
  documentation: 'test',
  config: z.object({ ms: z.number().default(50) }),
  inputs: () => [{ name: 'in', type: 'any' }],
  outputs: () => [{ name: 'out', type: 'json' }],
  async execute(ctx, inputs, config) {
    await new Promise((resolve, reject) => {
      const t = setTimeout(resolve, config.ms);
      ctx.signal.addEventListener('abort', () => (clearTimeout(t), reject(new Error('aborted'))));
    });
    return { outputs: { out: { ...(inputs.in as object), at: Date.now() } } };
  },
});
/** What each run of `split` was told of its outputs (NodeContext.outputRead), by `executionId:nodeId`. */
export const outputReads = new Map<string, { even: boolean; odd: boolean }>();
/** The node types each run of `split` was told its `even` output feeds (NodeContext.outputTargets). */
export const evenTargets = new Map<string, readonly string[] | undefined>();
const split = testNode({
  id: 'split',
  name: 'split',
  category: 'control',
  description: 'branches',
  version: '1',
  keywords: [],
  side_effect: 'none',
  documentation: 'test',
  config: z.object({}),
  inputs: () => [{ name: 'in', type: 'any' }],
  outputs: () => [
    { name: 'even', type: 'json' },
    { name: 'odd', type: 'json' },
  ],
  async execute(ctx, inputs) {
    const v = inputs.in as { n: number };
    outputReads.set(`${ctx.executionId}:${ctx.nodeId}`, { even: ctx.outputRead('even'), odd: ctx.outputRead('odd') });
    evenTargets.set(`${ctx.executionId}:${ctx.nodeId}`, ctx.outputTargets?.('even'));
    return { outputs: v.n % 2 === 0 ? { even: v } : { odd: v } };
  },
});
const write = testNode({
  id: 'write',
  name: 'write',
  category: 'output',
  description: 'writes',
  version: '1',
  keywords: [],
  side_effect: 'write',
  documentation: 'test',
  config: z.object({}),
  inputs: () => [{ name: 'in', type: 'any' }],
  outputs: () => [{ name: 'out', type: 'json' }],
  async execute(ctx, inputs) {
    if (ctx.testMode) return { outputs: { out: { would_send: inputs.in } }, simulated: true };
    sent.push({ key: ctx.idempotencyKey, body: inputs.in });
    return { outputs: { out: { sent: true } } };
  },
});

const upper = testNode({
  id: 'upper',
  name: 'upper',
  category: 'data',
  description: 'upper-cases text',
  version: '1',
  keywords: [],
  side_effect: 'none',
  documentation: 'test',
  config: z.object({}),
  inputs: () => [{ name: 'in', type: 'text' }],
  outputs: () => [{ name: 'out', type: 'text' }],
  async execute(_ctx, inputs) {
    return { outputs: { out: String(inputs.in).toUpperCase() } };
  },
});

const testTypes = new Map<string, NodeType>([inc, boom, slow, split, write, upper].map((t) => [t.id, t as unknown as NodeType]));
export const registry: Registry = (id) => testTypes.get(id) ?? getNodeType(id);

type NodeSpec = { id: string; type: string; config?: Record<string, unknown>; settings?: Record<string, unknown>; disabled?: boolean };

export function n(id: string, type: string, config: Record<string, unknown> = {}, settings?: Record<string, unknown>): NodeSpec {
  return { id, type, config, ...(settings ? { settings } : {}) };
}

const DEFAULT_OUT: Record<string, string> = { 'manual-trigger': 'event' };
const DEFAULT_IN: Record<string, string> = { 'pipeline-output': 'value' };

/** `a>b` connects a's default output to b's default input; `a.odd>b` or `a>b.value` name ports. */
export function pipeline(nodes: NodeSpec[], ...edges: string[]): PipelineDefinition {
  const typeOf = new Map(nodes.map((x) => [x.id, x.type]));
  const connections = edges.map((e, i) => {
    const [from, to] = e.split('>') as [string, string];
    const [source, sp] = from.split('.');
    const [target, tp] = to.split('.');
    return {
      id: `c${i}`,
      source: source!,
      source_port: sp ?? DEFAULT_OUT[typeOf.get(source!) ?? ''] ?? 'out',
      target: target!,
      target_port: tp ?? DEFAULT_IN[typeOf.get(target!) ?? ''] ?? 'in',
    };
  });
  return PipelineDefinition.parse({ nodes, connections });
}

export const noServices = testServices();
