import { getNodeDescriptor } from '@/engine/nodes/descriptors';
import { configureNode } from '../planner/configure-node';
import { readRequest } from '../planner/read';
import { isWrite, type EditGraph } from './graph';
import type { Op } from './intent';
import { replaceOp } from './ops-change';
import type { OpResult } from './ops-place';
import type { EditContext } from './points';
import { findNode } from './resolve';
import { BEHAVIORS, connectorTypeOf, isOutput } from '../planner/behaviors';
import { stepAsked } from './steps';

const fail = (problem: string): OpResult => ({ ok: false, changes: [], problem });

const READS = /\b(read|reads|reading|query|queries|fetch\w*|pull\w*|search\w*|get|export\w*|from)\b/;

/** "Retry the FHIR write 5 times": the retry setting of the write named, or of every write. */
export function retryOp(g: EditGraph, op: Extract<Op, { kind: 'retry' }>): OpResult {
  const writes = g.def.nodes.filter((n) => isWrite(n.type));
  if (!writes.length) return fail('the pipeline has no step that writes to another system, so there is nothing to retry');
  const all = /\bwrites\b|\ball\b|\bevery\b/.test(op.target) || !/\w/.test(op.target.replace(/\b(the|it|them|if|fails?|failing|on failure)\b/g, ''));
  const named = all ? undefined : findNode(g, op.target);
  const targets = named && isWrite(named.type) ? [named] : writes;
  for (const n of targets) n.settings = { ...n.settings, retry: { max_attempts: op.attempts, backoff_ms: n.settings?.retry?.backoff_ms ?? 1000 } };
  return {
    ok: true,
    changes: [
      `${targets.map((n) => n.id).join(', ')}: up to ${op.attempts} attempts when ` +
        `${targets.length > 1 ? 'they fail' : 'it fails'} (writes carry an idempotency key, so a retry does not write twice)`,
    ],
  };
}

/**
 * "Acknowledge messages once their run ended": each MLLP listener's ACK waits for the run (ack_mode completed). "Keep the
 * order per patient": each listener keeps each patient's order, not each connection's (`order: patient`). "Keep the
 * messages in order" alone changes nothing: a listener runs a sender's messages one after another, in either mode.
 */
export function orderOp(g: EditGraph, op: Extract<Op, { kind: 'order' }>): OpResult {
  const listeners = g.def.nodes.filter((n) => n.type === 'mllp-listener-trigger');
  if (!listeners.length) return fail('the pipeline has no MLLP listener: only a feed acknowledged to its sender can wait for its runs');
  if (op.patient) return patientOrder(g, listeners);
  if (!op.ack)
    return fail(
      `${listeners.map((n) => g.label(n.id)).join(', ')} already keeps the order: each run of a sender's messages starts once the run of ` +
        'the message before it ended, in the order received (to have each ACK wait for its run too, ask to acknowledge messages once their run ended)',
    );
  const changed = listeners.filter((n) => n.config.ack_mode !== 'completed');
  if (!changed.length) return fail(`${listeners.map((n) => g.label(n.id)).join(', ')} already acknowledges each message once its run ended`);
  for (const n of changed) n.config = { ...n.config, ack_mode: 'completed' };
  return {
    ok: true,
    changes: [
      `${changed.map((n) => g.label(n.id)).join(', ')}: ack_mode completed (each message is acknowledged once its run ended, ` +
        'AA when it completed, AE with the error when it failed)',
    ],
  };
}

/** Each listener keeps each patient's order (PID-3), so that one connection runs different patients side by side. */
function patientOrder(g: EditGraph, listeners: EditGraph['def']['nodes']): OpResult {
  const changed = listeners.filter((n) => n.config.order !== 'patient');
  if (!changed.length) return fail(`${listeners.map((n) => g.label(n.id)).join(', ')} already keeps the order per patient`);
  for (const n of changed) n.config = { ...n.config, order: 'patient' };
  const waits = changed.filter((n) => n.config.ack_mode === 'completed');
  return {
    ok: true,
    changes: [
      `${changed.map((n) => g.label(n.id)).join(', ')}: order patient (each run starts after the run of the message before it about the same ` +
        `patient, PID-3; different patients' messages run side by side)` +
        (waits.length
          ? `; with ack_mode completed each ACK still waits for its run, so ${waits.map((n) => g.label(n.id)).join(', ')} takes one message at a time`
          : ''),
    ],
  };
}

/** "Load into staging.patients instead", "read from the Research FHIR server instead", "2 sentences instead". */
export function insteadOp(g: EditGraph, op: Extract<Op, { kind: 'instead' }>, ctx: EditContext): OpResult {
  const lower = op.what.toLowerCase();
  const req = readRequest(op.what);
  // the database writes: sinks through a postgres connector
  const writesTable = (type: string) => BEHAVIORS[type]?.role === 'sink' && connectorTypeOf(type) === 'postgres';
  const pg = g.def.nodes.filter((n) => writesTable(n.type));
  if (req.table && pg.length) {
    const node = (findNode(g, op.what) ?? pg[0])!;
    const target = writesTable(node.type) ? node : pg[0]!;
    target.config = { ...target.config, table: req.table };
    return { ok: true, changes: [`${g.label(target.id)}: table ${req.table}`] };
  }
  const named = ctx.connectors.filter((c) => lower.includes(c.name.toLowerCase()));
  for (const c of named) {
    const nodes = g.def.nodes.filter((n) => connectorTypeOf(n.type) === c.type && n.config.connector !== c.name);
    const reading = READS.test(lower);
    const node = nodes.find((n) => (getNodeDescriptor(n.type)?.side_effect === 'write') !== reading) ?? nodes[0];
    if (node) {
      node.config = { ...node.config, connector: c.name };
      return { ok: true, changes: [`${g.label(node.id)}: connector "${c.name}" (${c.type})`] };
    }
  }
  const ask = stepAsked(op.what);
  const same = ask ? g.def.nodes.find((n) => ask.types.includes(n.type)) : undefined;
  if (same) {
    const r = configureNode(same.type, op.what, { base: same.config, connectors: ctx.connectors });
    if (r && !r.problem && JSON.stringify(r.config) !== JSON.stringify(same.config)) {
      same.config = r.config;
      return { ok: true, changes: [`${g.label(same.id)}: ${r.filled.join(', ') || 'configured from the request'}`] };
    }
    return fail(`${g.label(same.id)} is already there, and "${op.clause}" says nothing the planner can change in it`);
  }
  // "use the agent instead": the step of the same kind is replaced
  if (ask) {
    const category = getNodeDescriptor(ask.types[0]!)?.category;
    const kin = g.def.nodes.find((n) => getNodeDescriptor(n.type)?.category === category && !getNodeDescriptor(n.type)?.trigger && !isOutput(n.type));
    if (kin) return replaceOp(g, { kind: 'replace', clause: op.clause, what: op.what, old: kin.id }, ctx);
  }
  return fail(`"${op.clause}": instead of what? Name the step to replace ("use the agent instead of the summarizer")`);
}
