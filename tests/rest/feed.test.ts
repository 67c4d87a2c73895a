import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Hl7Message } from '@medplum/core';
import { Hl7Client } from '@medplum/hl7';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { orgWithKey } from '../support/accounts';
import { client, type Client } from '../support/client';
import { startFhirServer, type FhirPeer } from '../support/fhir-server';
import { createTestDatabase } from '../support/postgres';
import { freePort, startServer, tempDir } from '../support/server';

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
  const connections = [
    edge('in', 'message', 'parse', 'text'),
    edge('parse', 'message', 'fhir', 'message'),
    edge('fhir', 'bundle', 'check', 'resource'),
    edge('check', 'valid', 'deid', 'resource'),
    edge('deid', 'resource', 'write', 'resource'),
  ];
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
    // the runs keep their payloads (`full`, the default): every write asked for the stored resources back, and the run
    // shows them
    const writes = () => fhir.seen.filter((s) => s.method === 'POST' && s.path === '/fhir/R4').map((s) => s.prefer);
    expect(new Set(writes())).toEqual(new Set(['return=representation']));
    const shown = (await api.get(`/api/executions/${runs[0]!.id}`)).body.nodes.find((n: { node_id: string }) => n.node_id === 'write');
    expect(shown.outputs.result.entry[0].resource.resourceType).toBeTruthy();

    // under `errors` a completed run keeps no payload, and no connection reads `result`: the server is asked for a
    // minimal answer (nothing sent back that nobody would read); a run that keeps its payloads still asks for all
    expect((await api.put(`/api/pipelines/${p.body.id}`, { data_settings: { policy: 'errors' } })).status).toBe(200);
    const seenBefore = writes().length;
    const again = await promisify(execFile)('mllp_send', ['--loose', '--port', String(port), '--file', file, '127.0.0.1'], { timeout: 60_000 });
    expect(again.stdout.match(/MSA\|AA\|/g)).toHaveLength(FEED.length);
    const later = await settledRuns(api, p.body.id, 60_000);
    // both sends' runs, and the retry's
    expect(later.filter((r) => r.status === 'completed')).toHaveLength(2 * FEED.length + 1);
    expect(writes().slice(seenBefore)).toEqual(FEED.map(() => 'return=minimal'));
    await api.post(`/api/pipelines/${p.body.id}/undeploy`);
  });
});

/** The feed's executions once none is queued or running (after `timeoutMs`, as they are). */
async function settledRuns(api: Client, pipelineId: string, timeoutMs: number) {
  let runs: { id: string; status: string }[] = [];
  for (const end = Date.now() + timeoutMs; Date.now() < end;) {
    runs = (await api.get(`/api/executions?pipeline_id=${pipelineId}&limit=100`)).body.executions;
    if (runs.every((r) => !['queued', 'running'].includes(r.status))) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return runs;
}

const databases = [
  { name: 'PGlite', open: async () => ({ env: { DATA_DIR: tempDir('feed-kill') }, drop: async () => {} }) },
  {
    name: 'Postgres',
    open: async () => {
      const d = await createTestDatabase('feedkill');
      return { env: { DATABASE_URL: d.url }, drop: d.drop };
    },
  },
];

describe.each(databases)('a feed whose server is killed mid-feed, on $name', ({ open }) => {
  it('runs every message it acknowledged once the server is back, each to the FHIR server', async () => {
    const database = await open();
    const fhir = await startFhirServer({ auth: 'none' });
    // a short heartbeat: the runs the killed process held are handed on 10 s after it stopped refreshing them
    const env = {
      ...database.env,
      BOOTSTRAP_ORG_ID: 'org-feed-kill',
      BOOTSTRAP_API_KEY: 'cfk_test_feed_kill_key_0123456789',
      CONNECTOR_KEY: 'Y2xpbmZsb3ctdGVzdC1jb25uZWN0b3Ita2V5LTMyYiE=',
      QUEUE_HEARTBEAT_SECONDS: '10',
      QUEUE_SUPERVISE_SECONDS: '2',
    };
    const org = { id: env.BOOTSTRAP_ORG_ID, key: env.BOOTSTRAP_API_KEY };
    let server = await startServer(env);
    try {
      let api = client(server.url, org);
      expect((await api.post('/api/connectors', { name: 'Research FHIR', type: 'fhir', endpoint: fhir.baseUrl })).status).toBe(201);
      const port = await freePort();
      const p = await api.post('/api/pipelines', { name: 'ADT feed', definition: feedPipeline(port), data_settings: { policy: 'errors' } });
      expect((await api.post(`/api/pipelines/${p.body.id}/deploy`)).status).toBe(200);

      // 4 senders, 60 messages with control ids of their own; the server is killed (SIGKILL: no grace, nothing
      // flushed) as the 12th ACK arrives, with runs of acknowledged messages still going or waiting
      const withId = (text: string, i: number) =>
        text
          .replace(/\r?\n/g, '\r')
          .trim()
          .replace(/^(MSH(?:\|[^|]*){8}\|)[^|]*/, `$1KILL${i}`);
      const messages = Array.from({ length: 60 }, (_, i) => withId(FEED[i % FEED.length]!, i));
      const acked = new Set<string>();
      let next = 0;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          const sender = new Hl7Client({ host: '127.0.0.1', port, connectTimeout: 5000 });
          try {
            while (next < messages.length && server.process.exitCode === null && server.process.signalCode === null) {
              const i = next++;
              const ack = await sender.sendAndWait(Hl7Message.parse(messages[i]!), { timeoutMs: 60_000 });
              if (ack.getSegment('MSA')?.getField(1)?.toString() === 'AA') acked.add(`KILL${i}`);
              if (acked.size === 12) server.process.kill('SIGKILL');
            }
          } catch {
            // the connection died with the server: that message was not acknowledged
          } finally {
            await sender.close().catch(() => {});
          }
        }),
      );
      await server.stop();
      expect(acked.size).toBeGreaterThanOrEqual(12);

      server = await startServer(env);
      api = client(server.url, org);
      const runs = await settledRuns(api, p.body.id, 120_000);
      // every acknowledged message has its execution (and those stored whose ACK the kill cut off), and each ran to the end
      expect(runs.length).toBeGreaterThanOrEqual(acked.size);
      expect(runs.filter((r) => r.status !== 'completed')).toEqual([]);
      // the killed process held runs it had claimed to run itself (no queue job) or to start after the run before on
      // their connection: the new one took them over, to the queue or held in turn
      expect(server.output()).toMatch(/run\(s\) claimed by a process that stopped taken over/);
      // and reached the FHIR server: a MessageHeader per message (its id derives from the control id)
      const headers = await fhir.repo.searchResources({ resourceType: 'MessageHeader', count: 200 } as never);
      expect(headers).toHaveLength(runs.length);
      await api.post(`/api/pipelines/${p.body.id}/undeploy`);
    } finally {
      await server.stop();
      await fhir.close();
      await database.drop();
    }
  }, 300_000);
});
