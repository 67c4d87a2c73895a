import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { orgWithKey } from '../support/accounts';
import { client, type Client, pollExecution } from '../support/client';

/*
 * A node record's inputs and outputs of over 1 KB are stored deflated (issue 27: under `full` a feed message's records
 * were ~60 KB of jsonb; services/executions/stored-payloads.ts): every reader gets them back as the node gave them — the
 * detail, a retry from a later node (it runs on the stored outputs), a step session — and the pruner drops them.
 *
 * in (manual-trigger, field message: text) ──message──▶ parse (hl7v2-parse) ──message──▶ fhir (hl7v2-to-fhir)
 *   ──bundle──▶ out ("bundle");  parse ──message──▶ raw ("parsed")
 */
const DIR = '/work/shared/data/hl7v2/messages';
/** The largest ADT sample: its bundle is tens of KB, as a feed's are. */
const ADT = fs
  .readdirSync(DIR)
  .filter((f) => f.startsWith('ADT-'))
  .map((f) => fs.readFileSync(path.join(DIR, f), 'utf8'))
  .sort((a, b) => b.length - a.length)[0]!;

const definition = {
  nodes: [
    { id: 'in', type: 'manual-trigger', config: { fields: { message: 'text' } } },
    { id: 'parse', type: 'hl7v2-parse', config: {} },
    { id: 'fhir', type: 'hl7v2-to-fhir', config: { bundle_type: 'transaction' } },
    { id: 'out', type: 'pipeline-output', config: { key: 'bundle' } },
    { id: 'raw', type: 'pipeline-output', config: { key: 'parsed' } },
  ],
  connections: [
    { id: 'c1', source: 'in', source_port: 'message', target: 'parse', target_port: 'text' },
    { id: 'c2', source: 'parse', source_port: 'message', target: 'fhir', target_port: 'message' },
    { id: 'c3', source: 'fhir', source_port: 'bundle', target: 'out', target_port: 'value' },
    { id: 'c4', source: 'parse', source_port: 'message', target: 'raw', target_port: 'value' },
  ],
};

type Node = { node_id: string; status: string; inputs: Record<string, unknown> | null; outputs: Record<string, unknown> | null };

describe.each(inject('targets'))('node payloads stored deflated, on $name', (target) => {
  let api: Client;
  let sql: postgres.Sql | undefined;
  /** On Postgres: how each node record of a run is stored. */
  const storedNodes = async (id: string) => {
    const rows = await sql!`select node_id, inputs::text as inputs, outputs::text as outputs, emit::text as emit, length(payloads_z) as deflated
      from execution_nodes where execution_id = ${id} order by node_id`;
    return Object.fromEntries(
      rows.map((r) => [r.node_id, { inputs: r.inputs, outputs: r.outputs, emit: r.emit, deflated: r.deflated === null ? null : Number(r.deflated) }]),
    );
  };

  beforeAll(async () => {
    const org = await orgWithKey(target.url, `stored-payloads-${target.name}-${Date.now()}@example.org`);
    api = client(target.url, org);
    if (target.name === 'postgres') sql = postgres(inject('postgresUrl'), { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await sql?.end();
  });

  it('a full run shows every node as it ran; a retry from the last node runs on the bundle stored; the pruner drops it', async () => {
    const created = await api.post('/api/pipelines', { name: 'ADT to FHIR, kept', definition, data_settings: { policy: 'full' } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    expect((await api.post(`/api/pipelines/${id}/deploy`)).status).toBe(200);

    const ran = await api.post('/api/execute', { pipeline_id: id, inputs: { message: ADT } });
    expect(ran.status, ran.text).toBe(200);
    const run = await pollExecution(api, ran.body.execution_id);
    expect(run).toMatchObject({ status: 'completed', data_policy: 'full', payloads: 'kept', inputs: { message: ADT } });
    expect(Object.keys(run.outputs).sort()).toEqual(['bundle', 'parsed']);
    const bundle = run.outputs.bundle as { resourceType: string; entry: { resource: { resourceType: string } }[] };
    expect(bundle.resourceType).toBe('Bundle');
    expect(bundle.entry.map((e) => e.resource.resourceType)).toContain('Patient');
    const node = (r: { nodes: Node[] }, nodeId: string) => r.nodes.find((n) => n.node_id === nodeId)!;
    // each node's payloads as the node gave them: the bundle the conversion made is the one the output received
    expect(node(run, 'fhir').outputs).toEqual({ bundle });
    expect(node(run, 'out').inputs).toEqual({ value: bundle });
    expect(node(run, 'parse').inputs).toEqual({ text: ADT });
    const parsed = node(run, 'parse').outputs!.message as { message_type: string; segments: unknown[] };
    expect(parsed.message_type).toBe('ADT');
    expect(node(run, 'fhir').inputs).toEqual({ message: parsed });
    const bundleJson = JSON.stringify(bundle).length;
    expect(bundleJson).toBeGreaterThan(10_000);
    if (sql) {
      const stored = await storedNodes(run.id);
      // the bundle and the parsed message are in payloads_z, in a fraction of their JSON; their jsonb columns are empty
      for (const n of ['parse', 'fhir']) expect(stored[n]).toMatchObject({ inputs: '{}', outputs: '{}' });
      // what an output node emitted goes with its payloads: the parsed message is not kept a second time as jsonb
      expect(stored.raw).toMatchObject({ inputs: '{}', outputs: '{}', emit: null });
      expect(stored.raw!.deflated).toBeGreaterThan(0);
      // and the run's outputs (the bundle and the parsed message) are deflated in its row
      const [row] = await sql`select outputs::text as outputs, length(outputs_z) as deflated from executions where id = ${run.id}`;
      expect(row).toMatchObject({ outputs: null });
      expect(Number(row!.deflated)).toBeLessThan(bundleJson / 3);
      expect(stored.fhir!.deflated).toBeGreaterThan(0);
      expect(stored.fhir!.deflated).toBeLessThan(bundleJson / 3);
    }

    // found by a value only its outputs hold (the bundle's first entry's id, made by the conversion)
    const fullUrl = (bundle as unknown as { entry: { fullUrl: string }[] }).entry[0]!.fullUrl;
    expect(JSON.stringify(run.inputs)).not.toContain(fullUrl);
    const found = (await api.get(`/api/executions?pipeline_id=${id}&q=${encodeURIComponent(fullUrl)}`)).body;
    expect(found).toMatchObject({ total_count: 1, executions: [{ id: run.id }] });

    // a retry from the output node runs on what the conversion stored: the same bundle comes out, and beside it what the
    // other output node emitted in the first run (carried over from its stored record)
    const retry = await api.post('/api/execute/retry', { execution_id: run.id, node_id: 'out' });
    expect(retry.status, retry.text).toBe(200);
    const again = await pollExecution(api, retry.body.execution_id);
    expect(again).toMatchObject({ status: 'completed', retry_of: run.id });
    expect(again.outputs).toEqual({ bundle, parsed });
    expect(node(again, 'fhir')).toMatchObject({ status: 'completed', outputs: { bundle } });

    // a step session (test mode: keeps everything) reads its earlier nodes' records back at every step
    let state = (await api.post('/api/execute/step', { pipeline_id: id, inputs: { message: ADT }, test_mode: true })).body;
    while (state.status === 'waiting') state = (await api.post(`/api/execute/step/${state.session_id}`, {})).body;
    expect(state.status).toBe('completed');
    expect((await api.get(`/api/executions/${state.execution_id}`)).body).toMatchObject({ outputs: { bundle } });

    if (!sql) return; // ageing a run takes SQL: on Postgres
    await sql`update pipelines set data_settings = '{"policy": "full", "payload_days": 7}' where id = ${id}`;
    await sql`update executions set created_at = now() - interval '10 days' where id = ${run.id}`;
    const pruned = await api.post('/api/storage/prune');
    expect(pruned.status, pruned.text).toBe(200);
    expect(pruned.body.bytes_freed).toBeGreaterThan(0);
    const gone = (await api.get(`/api/executions/${run.id}`)).body;
    expect(gone).toMatchObject({ payloads: 'pruned', inputs: null, outputs: null });
    expect(node(gone, 'fhir')).toMatchObject({ status: 'completed', inputs: null, outputs: null });
    for (const n of Object.values(await storedNodes(run.id))) expect(n).toEqual({ inputs: '{}', outputs: '{}', emit: null, deflated: null });
    // the retry's records were not the pruner's to touch: still whole
    expect((await storedNodes(again.id)).fhir!.deflated).toBeGreaterThan(0);
  });
});
