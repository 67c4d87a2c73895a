import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executionNodes } from '@/server/db/schema';
import type { Runtime } from '@/server/runtime';
import { idleQueueRuntime, orgCaller } from '../../../../tests/support/runtime';
import { resolveRefs } from './record-refs';
import { runExecution } from './run-execution';
import { startExecution } from './start-execution';
import { withPayloads } from './stored-payloads';

const adt = readFileSync(path.resolve(import.meta.dirname, '../../../../../shared/data/hl7v2/messages/ADT-A01-01.hl7'), 'utf8');

/*
 * in (manual-trigger, message) ──▶ parse ──▶ fhir (hl7v2-to-fhir) ──▶ check (fhir-validate) ──valid──▶ out "bundle"
 * The message text, the parsed message and the bundle each pass through two or three slots: the bundle is
 * fhir's output, check's input and its `valid` output (the same value, let through), and out's input.
 */
const definition = {
  nodes: [
    { id: 'in', type: 'manual-trigger', config: { fields: { message: 'text' } }, position: { x: 0, y: 0 } },
    { id: 'parse', type: 'hl7v2-parse', config: {}, position: { x: 0, y: 0 } },
    { id: 'fhir', type: 'hl7v2-to-fhir', config: {}, position: { x: 0, y: 0 } },
    { id: 'check', type: 'fhir-validate', config: { expect: 'bundle' }, position: { x: 0, y: 0 } },
    { id: 'out', type: 'pipeline-output', config: { key: 'bundle' }, position: { x: 0, y: 0 } },
  ],
  connections: [
    { source: 'in', source_port: 'message', target: 'parse', target_port: 'text' },
    { source: 'parse', source_port: 'message', target: 'fhir', target_port: 'message' },
    { source: 'fhir', source_port: 'bundle', target: 'check', target_port: 'resource' },
    { source: 'check', source_port: 'valid', target: 'out', target_port: 'value' },
  ],
};

type Caller = Awaited<ReturnType<typeof orgCaller>>;
type Detail = Awaited<ReturnType<Caller['executions']['get']>>;

/** What a user reads of each node: every slot holds the value its upstream gave, in full. */
function expectValuesInPlace(detail: Detail) {
  const node = (id: string) => detail.nodes.find((n) => n.node_id === id)!;
  expect(node('parse').inputs).toEqual({ text: adt });
  expect((node('parse').outputs as { message: unknown }).message).toBeTruthy();
  expect(node('fhir').inputs).toEqual({ message: (node('parse').outputs as { message: unknown }).message });
  const bundle = (node('fhir').outputs as { bundle: { resourceType: string; entry: unknown[] } }).bundle;
  expect(bundle.resourceType).toBe('Bundle');
  expect(bundle.entry.length).toBeGreaterThan(3);
  expect(node('check').inputs).toEqual({ resource: bundle });
  expect((node('check').outputs as { valid: unknown }).valid).toEqual(bundle);
  expect(node('out').inputs).toEqual({ value: bundle });
  expect(detail.outputs).toEqual({ bundle });
}

/** The JSON text the execution's node records hold in the database (what is stored deflated, as its JSON). */
async function storedBytes(rt: Runtime, executionId: string): Promise<number> {
  const rows = await rt.db
    .select({ inputs: executionNodes.inputs, outputs: executionNodes.outputs, payloadsZ: executionNodes.payloadsZ })
    .from(executionNodes)
    .where(eq(executionNodes.executionId, executionId));
  return rows.map(withPayloads).reduce((n, r) => n + JSON.stringify(r.inputs).length + JSON.stringify(r.outputs).length, 0);
}

/** The bytes the node records would take with every slot's value in full (as JSON, without jsonb's spaces). */
function fullBytes(detail: Detail): number {
  return detail.nodes.reduce((n, node) => n + JSON.stringify(node.inputs).length + JSON.stringify(node.outputs).length, 0);
}

describe('node records store each value once', () => {
  let rt: Runtime;
  let close: () => Promise<void>;
  let a: Caller;
  let pipelineId: string;
  beforeAll(async () => {
    ({ rt, close } = await idleQueueRuntime());
    a = await orgCaller(rt, 'org-refs');
    pipelineId = (await a.pipelines.create({ name: 'refs', description: '', definition })).id;
  }, 60_000);
  afterAll(() => close());

  it('a run in its request: every slot reads in full, the values stored about once', async () => {
    const r = await a.executions.execute({ pipeline_id: pipelineId, inputs: { message: adt }, test_mode: true, async: false });
    expect(r.status).toBe('completed');
    const detail = await a.executions.get({ id: r.execution_id });
    expectValuesInPlace(detail);
    // in full, the bundle alone would be stored four times, the message text and the parsed message twice each
    expect(await storedBytes(rt, r.execution_id)).toBeLessThan(fullBytes(detail) * 0.5);
  });

  it('a worker run (progress written as it goes) and a retry from its middle keep every value', async () => {
    const { id } = await startExecution(rt.db, {
      orgId: 'org-refs',
      pipelineId,
      pipelineVersion: 1,
      trigger: 'async',
      testMode: true,
      inputs: { message: adt },
      status: 'queued',
    });
    const result = await runExecution(rt, id);
    expect(result?.status).toBe('completed');
    const detail = await a.executions.get({ id });
    expectValuesInPlace(detail);
    expect(await storedBytes(rt, id)).toBeLessThan(fullBytes(detail) * 0.5);

    // the retry carries in, parse and fhir from the stored records and runs check and out again
    const retried = await a.executions.retry({ execution_id: id, node_id: 'check' });
    expect(retried.status).toBe('completed');
    const again = await a.executions.get({ id: retried.execution_id });
    expectValuesInPlace(again);
    expect(again.outputs).toEqual(detail.outputs);
  });
});

describe('reading references', () => {
  type Row = Parameters<typeof resolveRefs>[0][number];
  const row = (nodeId: string, inputs: Record<string, unknown>, refs: Row['refs'] = null) => ({ nodeId, inputs, outputs: {}, refs }) as unknown as Row;

  it('follows a reference whose slot a later run rewrote as a reference, and gives up on a circle', () => {
    // a resumed run kept c (whose input names a's), and wrote a again naming b's equal input
    const bundle = { resourceType: 'Bundle', entry: [] };
    const rows = [
      row('b', { q: bundle }),
      row('a', {}, { inputs: { p: ['b', 'inputs', 'q'] } }),
      row('c', {}, { inputs: { r: ['a', 'inputs', 'p'] } }),
      row('x', {}, { inputs: { s: ['y', 'inputs', 't'] } }),
      row('y', {}, { inputs: { t: ['x', 'inputs', 's'] } }),
    ];
    const read = new Map(resolveRefs(rows).map((r) => [r.nodeId, r.inputs]));
    expect(read.get('c')).toEqual({ r: bundle });
    expect(read.get('a')).toEqual({ p: bundle });
    expect(read.get('x')).toEqual({ s: undefined });
  });
});
