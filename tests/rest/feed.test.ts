import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { orgWithKey } from '../support/accounts';
import { client, type Client } from '../support/client';
import { startFhirServer, type FhirPeer } from '../support/fhir-server';
import { freePort } from '../support/server';

const DIR = path.resolve(import.meta.dirname, '../../../shared/data/hl7v2/messages');
const FEED = fs
  .readdirSync(DIR)
  .filter((f) => f.startsWith('ADT-A0'))
  .sort()
  .slice(0, 5)
  .map((f) => fs.readFileSync(path.join(DIR, f), 'utf8'));

/*
 * The hospital feed end to end:
 *   in (mllp-listener-trigger) ──message──▶ parse (hl7v2-parse) ──▶ fhir (hl7v2-to-fhir, transaction)
 *   ──▶ check (fhir-validate) ──valid──▶ deid (fhir-deidentify) ──▶ write (fhir-write, transaction, connector)
 * Messages arrive from Debian's mllp_send (python3-hl7), a client written by others.
 */
function feedPipeline(port: number) {
  const nodes = [
    { id: 'in', type: 'mllp-listener-trigger', config: { port } },
    { id: 'parse', type: 'hl7v2-parse', config: {} },
    { id: 'fhir', type: 'hl7v2-to-fhir', config: { bundle_type: 'transaction' } },
    { id: 'check', type: 'fhir-validate', config: { expect: 'bundle' } },
    { id: 'deid', type: 'fhir-deidentify', config: { expect: 'bundle' } },
    { id: 'write', type: 'fhir-write', config: { connector: 'Research FHIR', operation: 'transaction' } },
  ];
  const edge = (source: string, source_port: string, target: string, target_port: string) => ({ source, source_port, target, target_port });
  const connections = [edge('in', 'message', 'parse', 'text'), edge('parse', 'message', 'fhir', 'message'), edge('fhir', 'bundle', 'check', 'resource'), edge('check', 'valid', 'deid', 'resource'), edge('deid', 'resource', 'write', 'resource')];
  return { nodes, connections };
}

describe.each(inject('targets'))('an ADT feed over MLLP into a FHIR server, de-identified, on $name', (target) => {
  let api: Client;
  let fhir: FhirPeer;
  beforeAll(async () => {
    api = client(target.url, await orgWithKey(target.url, `feed-${target.name}-${Date.now()}@example.org`));
    fhir = await startFhirServer({ auth: 'none' });
  });
  afterAll(() => fhir.close());

  it('stores each message before its ACK and writes each one to the FHIR server once, with nothing that identifies the patient', async () => {
    expect((await api.post('/api/connectors', { name: 'Research FHIR', type: 'fhir', endpoint: fhir.baseUrl })).status).toBe(201);
    const port = await freePort();
    const p = await api.post('/api/pipelines', { name: 'ADT to research FHIR', definition: feedPipeline(port) });
    expect((await api.post(`/api/pipelines/${p.body.id}/deploy`)).status).toBe(200);

    // --loose: the messages one after the other in a file, LF line ends; it prints each ACK as it comes
    const file = path.join(fs.mkdtempSync('/tmp/clinflow-feed-'), 'feed.hl7');
    fs.writeFileSync(file, FEED.map((m) => m.trimEnd() + '\n').join(''));
    const { stdout } = await promisify(execFile)('mllp_send', ['--loose', '--port', String(port), '--file', file, '127.0.0.1'], { timeout: 60_000 });
    expect(stdout.match(/MSA\|AA\|/g)).toHaveLength(FEED.length);
    // every ACK came once its execution was stored (ack_mode stored): all of them are there
    expect((await api.get(`/api/executions?pipeline_id=${p.body.id}&limit=1`)).body.total_count).toBe(FEED.length);

    let runs: { id: string; status: string }[] = [];
    for (let i = 0; i < 400; i++) {
      runs = (await api.get(`/api/executions?pipeline_id=${p.body.id}&limit=100`)).body.executions;
      if (runs.every((r) => !['queued', 'running'].includes(r.status))) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(runs.map((r) => r.status)).toEqual(FEED.map(() => 'completed'));

    // each message is in the server once: the converter's ids derive from the message (as FHIR-Converter's do), and
    // bundles PUT them, so a MessageHeader per distinct control id (MSH-10), however often a message is sent
    const controlIds = new Set(FEED.map((m) => m.split(/\r?\n|\r/)[0]!.split('|')[9]));
    const headers = await fhir.repo.searchResources({ resourceType: 'MessageHeader', count: 100 } as never);
    expect(headers).toHaveLength(controlIds.size);
    const patients = await fhir.repo.searchResources({ resourceType: 'Patient', count: 100 } as never);
    expect(patients.length).toBeGreaterThan(0);
    const stored = JSON.stringify(patients);
    for (const identifying of ['EVERYMAN', 'Hospital Lane', '1988-08-18', 'PATID1234']) expect(stored).not.toContain(identifying);

    // a retry of a finished run writes nothing again
    const before = fhir.requests;
    const retry = await api.post('/api/execute/retry', { execution_id: runs[0]!.id, node_id: 'write' });
    expect(retry.body.status).toBe('completed');
    expect(await fhir.repo.searchResources({ resourceType: 'MessageHeader', count: 100 } as never)).toHaveLength(controlIds.size);
    expect(fhir.requests).toBeGreaterThan(before);
    await api.post(`/api/pipelines/${p.body.id}/undeploy`);
  });
});
