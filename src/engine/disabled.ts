import { portsFit } from '@/shared/ports';
import { emptyRun, type NodeRun } from './execute-node';
import type { GraphNode } from './graph';
import type { PortSpec } from './node-descriptor';

// A disabled node (n8n's "Deactivate") does not run, in test and real runs alike: it passes its first input
// straight through to each of its outputs whose type takes it, and is recorded as skipped (reason disabled).

/**
 * The input a disabled node passes on — its first input port (in port order) that got a value, or the
 * first one when `given` is left out — and the outputs whose type takes it.
 */
export function passThroughPorts(node: GraphNode, given?: Record<string, unknown>): { from: PortSpec | undefined; to: string[] } {
  const from = node.inputs.find((p) => !given || p.name in given);
  const to = from ? node.outputs.filter((o) => portsFit(from.type, o.type)).map((o) => o.name) : [];
  return { from, to };
}

/** A disabled node's record: skipped (reason `disabled`), its first input on each output that fits, a log line saying so. */
export function disabledRun(node: GraphNode, inputs: Record<string, unknown>, now = Date.now()): NodeRun {
  const { from, to } = passThroughPorts(node, inputs);
  const outputs = from ? Object.fromEntries(to.map((port) => [port, inputs[from.name]])) : {};
  const ports = to.map((p) => `"${p}"`).join(', ');
  const message = !from
    ? 'disabled: the node did not run; it had no input to pass on'
    : to.length
      ? `disabled: the node did not run; input "${from.name}" passed through to ${ports}`
      : `disabled: the node did not run; none of its outputs takes input "${from.name}" (${from.type}), so nothing went on`;
  return { ...emptyRun('skipped'), inputs, outputs, reason: 'disabled', logs: [{ level: 'info', message, time: new Date(now).toISOString() }] };
}
