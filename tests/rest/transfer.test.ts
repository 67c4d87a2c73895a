import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { orgWithKey } from '../support/accounts';
import { client, expectError, type Client } from '../support/client';
import { startFhirServer, type FhirPeer } from '../support/fhir-server';

/*
 * Pipelines between organizations (issue 30 §4): export from A, import into B with the connector mapped, run there.
 *
 * in (manual-trigger, field patient: json) ──patient──▶ check (fhir-validate) ──valid──▶ write (fhir-write, connector) ──▶ out
 */
const definition = (connector: string) => ({
  nodes: [
    { id: 'in', type: 'manual-trigger', config: { fields: { patient: 'json' } }, position: { x: 0, y: 0 } },
    { id: 'check', type: 'fhir-validate', config: {}, position: { x: 240, y: 0 } },
    { id: 'write', type: 'fhir-write', config: { connector, operation: 'create' }, position: { x: 480, y: 0 } },
    { id: 'out', type: 'pipeline-output', config: { key: 'written' }, position: { x: 720, y: 0 } },
  ],
  connections: [
    { id: 'c1', source: 'in', source_port: 'patient', target: 'check', target_port: 'resource' },
    { id: 'c2', source: 'check', source_port: 'valid', target: 'write', target_port: 'resource' },
    { id: 'c3', source: 'write', source_port: 'result', target: 'out', target_port: 'value' },
  ],
  notes: [{ id: 'n1', text: 'Writes admissions to the **research** server', position: { x: 0, y: 200 } }],
});
const patient = { resourceType: 'Patient', name: [{ family: 'Transferred', given: ['Ada'] }] };

describe.each(inject('targets'))('pipeline export and import on $name', (target) => {
  let a: Client;
  let b: Client;
  let fhir: FhirPeer;
  let pipelineId: string;
  let secret: string;

  beforeAll(async () => {
    const stamp = Date.now();
    a = client(target.url, await orgWithKey(target.url, `export-${target.name}-${stamp}@example.org`));
    b = client(target.url, await orgWithKey(target.url, `import-${target.name}-${stamp}@example.org`));
    fhir = await startFhirServer({ auth: 'bearer' });
    secret = `bearer-${stamp}-do-not-export`;
    const fhirAuth = { type: 'fhir', endpoint: fhir.baseUrl, config: { auth: 'bearer' } };
    const conn = await a.post('/api/connectors', { name: 'Research FHIR', ...fhirAuth, credentials: { token: secret } });
    expect(conn.status, conn.text).toBe(201);
    // the node names the connector by id in A: the file must name it by name
    const body = { name: 'Admissions to research', description: 'ADT admissions', definition: definition(conn.body.id), data_settings: { policy: 'errors' } };
    const p = await a.post('/api/pipelines', body);
    expect(p.status, p.text).toBe(201);
    pipelineId = p.body.id;
  });
  afterAll(() => fhir.close());

  it('exports definition, notes, settings and version, with connectors by name and type only', async () => {
    const res = await a.get(`/api/pipelines/${pipelineId}/export`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ format: 'clinflow-pipelines', format_version: 1 });
    const [p] = res.body.pipelines;
    expect(p).toMatchObject({ name: 'Admissions to research', description: 'ADT admissions', version: 1, data_settings: { policy: 'errors' } });
    expect(p.connectors).toEqual([{ name: 'Research FHIR', type: 'fhir' }]);
    expect(p.definition.nodes.find((n: any) => n.id === 'write').config.connector).toBe('Research FHIR');
    expect(p.definition.notes[0].text).toContain('research');
    expect(res.text).not.toContain(secret);
    expect(res.text).not.toContain(fhir.baseUrl);

    const two = await a.post('/api/pipelines/export', { ids: [pipelineId, pipelineId] });
    expect(two.status, two.text).toBe(200);
    expect(two.body.pipelines).toHaveLength(1);
    expectError(await b.get(`/api/pipelines/${pipelineId}/export`), 404, 'PIPELINE_NOT_FOUND');
  });

  it('imports into another organization with the connector mapped, never deployed, and runs there', async () => {
    const file = (await a.get(`/api/pipelines/${pipelineId}/export`)).body;
    // nothing of B's matches yet: a dry run says what is missing and creates nothing
    const dry = await b.post('/api/pipelines/import', { document: file, dry_run: true });
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body.missing_connectors).toEqual([{ name: 'Research FHIR', type: 'fhir' }]);
    expect(dry.body.pipelines[0]).toMatchObject({ id: null, missing_connectors: ['Research FHIR'] });
    expect((await b.get('/api/pipelines')).body.total_count).toBe(0);

    const ours = { name: 'Our FHIR store', type: 'fhir', endpoint: fhir.baseUrl, config: { auth: 'bearer' }, credentials: { token: fhir.credentials.token } };
    const mine = await b.post('/api/connectors', ours);
    expect(mine.status, mine.text).toBe(201);
    expectError(await b.post('/api/pipelines/import', { document: file, connector_map: { 'Research FHIR': 'nope' } }), 400, 'VALIDATION_FAILED');
    const res = await b.post('/api/pipelines/import', { document: file, connector_map: { 'Research FHIR': mine.body.id } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.missing_connectors).toEqual([]);
    expect(res.body.connectors).toEqual([{ name: 'Research FHIR', type: 'fhir', mapped_to: { id: mine.body.id, name: 'Our FHIR store' } }]);
    const [imported] = res.body.pipelines;
    expect(imported).toMatchObject({ version: 1, status: 'active', valid: true });

    const got = (await b.get(`/api/pipelines/${imported.id}`)).body;
    expect(got.deployed_version).toBeNull();
    expect(got.definition.nodes.find((n: any) => n.id === 'write').config.connector).toBe('Our FHIR store');
    expect(got.metadata.data_settings.overrides.policy).toBe('errors');
    expectError(await b.post('/api/execute', { pipeline_id: imported.id, inputs: { patient } }), 409, 'PIPELINE_NOT_DEPLOYED');
    expect((await b.post(`/api/pipelines/${imported.id}/deploy`)).status).toBe(200);
    const run = await b.post('/api/execute', { pipeline_id: imported.id, inputs: { patient } });
    expect(run.status, run.text).toBe(200);
    expect(run.body.status, run.text).toBe('completed');
    const written = await fhir.repo.searchResources({ resourceType: 'Patient', count: 100 } as never);
    expect(written.map((p: any) => p.name?.[0]?.family)).toContain('Transferred');
  });

  it('reads the older format (a pipeline as GET /pipelines/{id} answers it) and refuses newer or broken files, creating nothing', async () => {
    const before = (await b.get('/api/pipelines')).body.total_count;
    const legacy = (await a.get(`/api/pipelines/${pipelineId}`)).body;
    const res = await b.post('/api/pipelines/import', { document: legacy, dry_run: true });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ format_version: 1, pipelines: [{ name: 'Admissions to research', valid: true }] });
    const newer = { format: 'clinflow-pipelines', format_version: 99, pipelines: [] };
    expectError(await b.post('/api/pipelines/import', { document: newer }), 400, 'VALIDATION_FAILED');
    const broken = { format: 'clinflow-pipelines', format_version: 1, pipelines: [{ name: '', definition: { nodes: 'x' } }] };
    expectError(await b.post('/api/pipelines/import', { document: broken }), 400, 'VALIDATION_FAILED');
    expect((await b.get('/api/pipelines')).body.total_count).toBe(before);
  });
});
