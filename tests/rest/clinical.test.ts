import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { orgWithKey } from '../support/accounts';
import { client, type Client } from '../support/client';

const SAMPLES = path.resolve(import.meta.dirname, '../../../shared/data/hl7v2/messages');
const adt = readFileSync(path.join(SAMPLES, 'ADT-A01-01.hl7'), 'utf8');

/*
 * in (manual-trigger, field message: text) ──▶ parse (hl7v2-parse) ──▶ fhir (hl7v2-to-fhir)
 *   ──▶ check (fhir-validate, a bundle) ──valid──▶ deid (fhir-deidentify) ──▶ out "bundle"
 *                                       └─invalid─▶ rejected "invalid"
 */
const definition = {
  nodes: [
    { id: 'in', type: 'manual-trigger', config: { fields: { message: 'text' } } },
    { id: 'parse', type: 'hl7v2-parse', config: {} },
    { id: 'fhir', type: 'hl7v2-to-fhir', config: {} },
    { id: 'check', type: 'fhir-validate', config: { expect: 'bundle' } },
    { id: 'deid', type: 'fhir-deidentify', config: {} },
    { id: 'out', type: 'pipeline-output', config: { key: 'bundle' } },
    { id: 'rejected', type: 'pipeline-output', config: { key: 'invalid' } },
  ],
  connections: [
    { source: 'in', source_port: 'message', target: 'parse', target_port: 'text' },
    { source: 'parse', source_port: 'message', target: 'fhir', target_port: 'message' },
    { source: 'fhir', source_port: 'bundle', target: 'check', target_port: 'resource' },
    { source: 'check', source_port: 'valid', target: 'deid', target_port: 'resource' },
    { source: 'deid', source_port: 'resource', target: 'out', target_port: 'value' },
    { source: 'check', source_port: 'invalid', target: 'rejected', target_port: 'value' },
  ],
};

/** What identifies the patient of ADT-A01-01 (PID-3, PID-5, PID-7, PID-11, PID-19). */
const IDENTIFYING = ['PATID1234', 'EVERYMAN', 'ADAM', 'Hospital Lane', '1988-08-18', '123456789', 'PSSN123121234'];

type Bundle = { resourceType: string; entry: { resource: { resourceType: string; id?: string; identifier?: { value?: string }[]; birthDate?: string } }[] };
const patientOf = (b: Bundle) => b.entry.map((e) => e.resource).find((r) => r.resourceType === 'Patient')!;

describe.each(inject('targets'))('clinical pipeline over REST on $name', (target) => {
  let api: Client;
  let pipelineId: string;
  beforeAll(async () => {
    api = client(target.url, await orgWithKey(target.url, `clinical-${target.name}-${Date.now()}@example.org`));
    const created = await api.post('/api/pipelines', { name: 'ADT to de-identified FHIR', definition });
    expect(created.status).toBe(201);
    pipelineId = created.body.id;
  });

  it('runs ADT → parse → FHIR → validate → de-identify in test mode: a valid bundle with nothing that identifies the patient', async () => {
    const r = await api.post('/api/execute', { pipeline_id: pipelineId, inputs: { message: adt }, test_mode: true });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('completed');
    expect(r.body.node_results).toMatchObject({
      in: { status: 'completed' },
      parse: { status: 'completed' },
      fhir: { status: 'completed' },
      check: { status: 'completed' },
      deid: { status: 'completed' },
      out: { status: 'completed' },
      rejected: { status: 'skipped', reason: 'branch_not_taken' },
    });
    const bundle = r.body.outputs.bundle as Bundle;
    expect(bundle.resourceType).toBe('Bundle');
    expect(bundle.entry.map((e) => e.resource.resourceType)).toEqual(expect.arrayContaining(['Patient', 'Encounter']));
    const text = JSON.stringify(r.body.outputs);
    for (const value of IDENTIFYING) expect(text, value).not.toContain(value);

    // the execution keeps every node's output: the parsed message, the bundle before de-identification
    const run = await api.get(`/api/executions/${r.body.execution_id}`);
    const nodes = Object.fromEntries((run.body.nodes as { node_id: string; outputs: Record<string, unknown> }[]).map((n) => [n.node_id, n]));
    expect(nodes.parse!.outputs.message).toMatchObject({ message_type: 'ADT', trigger_event: 'A01' });
    expect(JSON.stringify(nodes.fhir!.outputs.bundle)).toContain('EVERYMAN');
  });

  it('gives the same patient the same pseudonym and date shift in every message, and another organization other ones', async () => {
    const run = async (c: Client, id: string) =>
      patientOf((await c.post('/api/execute', { pipeline_id: id, inputs: { message: adt }, test_mode: true })).body.outputs.bundle);
    const first = await run(api, pipelineId);
    const again = await run(api, pipelineId);
    expect(again.identifier).toEqual(first.identifier);
    expect(again.birthDate).toEqual(first.birthDate);

    const other = client(target.url, await orgWithKey(target.url, `clinical-other-${target.name}-${Date.now()}@example.org`));
    const theirs = (await other.post('/api/pipelines', { name: 'same pipeline elsewhere', definition })).body.id;
    const elsewhere = await run(other, theirs);
    expect(elsewhere.identifier?.[0]?.value).toBeTruthy();
    expect(elsewhere.identifier?.[0]?.value).not.toEqual(first.identifier?.[0]?.value);
  });

  it("routes text that is not HL7 v2 to the parser's invalid output, and the run says which line", async () => {
    const r = await api.post('/api/execute', { pipeline_id: pipelineId, inputs: { message: 'hello, this is not HL7' }, test_mode: true });
    expect(r.body.node_results.parse.status).toBe('completed');
    expect(r.body.node_results.fhir).toMatchObject({ status: 'skipped', reason: 'branch_not_taken' });
  });
});
