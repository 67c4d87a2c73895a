import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Hl7Server } from '@medplum/hl7';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { orgWithKey } from '../support/accounts';
import { client, expectError, type Client } from '../support/client';
import { startFhirServer, type FhirPeer } from '../support/fhir-server';

/*
 * Connectors against real peers on loopback (the servers run with OUTBOUND_ALLOW=loopback): the FHIR test
 * server (@medplum/fhir-router + OAuth2), @medplum/hl7's MLLP server, a node:http API, the machine's Postgres.
 */

describe.each(inject('targets'))('connectors over REST on $name', (target) => {
  let api: Client;
  let other: Client;
  let fhir: FhirPeer;
  let mllp: Hl7Server;
  let mllpPort: number;
  let web: http.Server;
  let webUrl: string;
  const seenAuth: string[] = [];
  const mllpSeen: string[] = [];

  beforeAll(async () => {
    api = client(target.url, await orgWithKey(target.url, `conn-${target.name}-${Date.now()}@example.org`));
    other = client(target.url, await orgWithKey(target.url, `conn-other-${target.name}-${Date.now()}@example.org`));
    fhir = await startFhirServer({ auth: 'oauth2' });
    mllp = new Hl7Server((connection) => {
      connection.addEventListener('message', ({ message }) => {
        mllpSeen.push(message.toString());
        // a receiver that takes no test messages, as some production engines are set up
        if (message.header.getField(5).toString() === 'Strict lab') {
          const ack = message.buildAck({ ackCode: 'AE' });
          ack.getSegment('MSA')!.setField(3, 'Test messages are not accepted here');
          connection.send(ack);
        } else connection.send(message.buildAck());
      });
    });
    await mllp.start(0);
    mllpPort = (mllp.server!.address() as AddressInfo).port;
    web = http.createServer((req, res) => {
      seenAuth.push(req.headers.authorization ?? '');
      res.writeHead(req.headers.authorization === 'Bearer tok_good_0123456789' ? 200 : 401).end();
    });
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
    webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    await fhir.close();
    await mllp.stop();
    web.close();
  });

  it('creates, lists, reads, updates and deletes, never showing a credential', async () => {
    const created = await api.post('/api/connectors', {
      name: 'Hospital FHIR',
      type: 'fhir',
      endpoint: fhir.baseUrl,
      config: { auth: 'oauth2', token_url: fhir.tokenUrl, scope: 'system/*.*' },
      credentials: { client_id: fhir.credentials.clientId, client_secret: fhir.credentials.clientSecret },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/api/connectors/${created.body.id}`);
    expect(created.body.credentials).toEqual({ client_id: '••••test', client_secret: `••••${fhir.credentials.clientSecret.slice(-4)}` });
    const id = created.body.id;
    expect((await api.get('/api/connectors')).body.connectors.map((c: { name: string }) => c.name)).toContain('Hospital FHIR');
    expect((await api.get(`/api/connectors/${id}`)).body).toMatchObject({ id, type: 'fhir', endpoint: fhir.baseUrl });
    const renamed = await api.put(`/api/connectors/${id}`, { name: 'Hospital FHIR R4', credentials: created.body.credentials });
    expect(renamed.body.name).toBe('Hospital FHIR R4');
    // the secret was kept (the masks were sent back): the connection still authenticates
    expect((await api.post(`/api/connectors/${id}/test`)).body.ok).toBe(true);

    // nothing anywhere says the secret: answers, the list, the database
    const everything = JSON.stringify([created.body, renamed.body, (await api.get('/api/connectors')).body, (await api.get(`/api/connectors/${id}`)).body]);
    expect(everything).not.toContain(fhir.credentials.clientSecret);
    if (target.name === 'postgres') {
      const sql = postgres(inject('postgresUrl'), { max: 1, onnotice: () => {} });
      const rows = await sql`select * from connectors where id = ${id}`;
      await sql.end();
      expect(JSON.stringify(rows)).not.toContain(fhir.credentials.clientSecret);
      expect(JSON.stringify(rows)).not.toContain(fhir.credentials.clientId);
    }

    expectError(await other.get(`/api/connectors/${id}`), 404, 'CONNECTOR_NOT_FOUND');
    expectError(await other.post(`/api/connectors/${id}/test`), 404, 'CONNECTOR_NOT_FOUND');
    expect((await api.del(`/api/connectors/${id}`)).status).toBe(204);
    expectError(await api.get(`/api/connectors/${id}`), 404, 'CONNECTOR_NOT_FOUND');
  });

  it('describes each type with the JSON Schema of its settings and credentials', async () => {
    const r = await api.get('/api/connectors/types');
    expect(r.status).toBe(200);
    expect(r.body.types.map((t: { type: string }) => t.type)).toEqual(['fhir', 'hl7-mllp', 'http', 'postgres', 'smtp']);
    expect(r.body.types[1].config_schema.properties).toMatchObject({ tls: { type: 'boolean' }, ack_timeout_ms: { type: 'integer' } });
  });

  it('tests a FHIR server for real: the OAuth2 token, then the CapabilityStatement', async () => {
    const c = await api.post('/api/connectors', {
      name: 'FHIR oauth',
      type: 'fhir',
      endpoint: fhir.baseUrl,
      config: { auth: 'oauth2', token_url: fhir.tokenUrl },
      credentials: { client_id: fhir.credentials.clientId, client_secret: fhir.credentials.clientSecret },
    });
    const ok = await api.post(`/api/connectors/${c.body.id}/test`);
    expect(ok.body).toMatchObject({
      ok: true,
      checks: [
        { name: 'connect', ok: true, detail: expect.stringContaining('TCP connection to 127.0.0.1') },
        { name: 'auth', ok: true },
        { name: 'metadata', ok: true, detail: expect.stringContaining('FHIR 4.0.1') },
      ],
    });
    await api.put(`/api/connectors/${c.body.id}`, { credentials: { client_secret: 'the-wrong-secret-000000' } });
    const refused = await api.post(`/api/connectors/${c.body.id}/test`);
    expect(refused.body).toMatchObject({
      ok: false,
      checks: [
        { name: 'connect', ok: true },
        { name: 'auth', ok: false, detail: expect.stringContaining('invalid_client') },
      ],
    });
    expect(JSON.stringify(refused.body)).not.toContain('the-wrong-secret');
  });

  it('tests an MLLP receiver (its ACK), an HTTP API (its answer) and a Postgres database (sign-in and schema)', async () => {
    const lab = await api.post('/api/connectors', { name: 'Lab', type: 'hl7-mllp', endpoint: `127.0.0.1:${mllpPort}` });
    const mllpTest = await api.post(`/api/connectors/${lab.body.id}/test`);
    expect(mllpTest.body).toMatchObject({
      ok: true,
      checks: [
        { name: 'connect', ok: true },
        { name: 'ack', ok: true, detail: expect.stringMatching(/^ACK AA for the test ADT\^A01/) },
      ],
    });
    // what the receiver got: an ADT^A01 marked as a test (MSH-11 T)
    const msh = mllpSeen.at(-1)!.split('\r')[0]!.split('|');
    expect([msh[8], msh[10]]).toEqual(['ADT^A01^ADT_A01', 'T']);
    const strict = await api.post('/api/connectors', { name: 'Strict lab', type: 'hl7-mllp', endpoint: `127.0.0.1:${mllpPort}` });
    expect((await api.post(`/api/connectors/${strict.body.id}/test`)).body).toMatchObject({
      ok: false,
      checks: [
        { name: 'connect', ok: true },
        { name: 'ack', ok: false, detail: expect.stringContaining('answered AE: Test messages are not accepted here') },
      ],
    });

    const payer = await api.post('/api/connectors', {
      name: 'Payer',
      type: 'http',
      endpoint: webUrl,
      config: { auth: 'bearer' },
      credentials: { token: 'tok_good_0123456789' },
    });
    expect((await api.post(`/api/connectors/${payer.body.id}/test`)).body).toMatchObject({
      ok: true,
      checks: [
        { name: 'connect', ok: true },
        { name: 'reach', detail: expect.stringContaining('answered 200') },
      ],
    });
    expect(seenAuth.at(-1)).toBe('Bearer tok_good_0123456789');
    await api.put(`/api/connectors/${payer.body.id}`, { credentials: { token: 'tok_bad_0000000000' } });
    expect((await api.post(`/api/connectors/${payer.body.id}/test`)).body).toMatchObject({
      ok: false,
      checks: [
        { name: 'connect', ok: true },
        { name: 'reach', ok: false, detail: expect.stringContaining('401') },
      ],
    });

    const db = new URL(inject('postgresUrl'));
    const warehouse = await api.post('/api/connectors', { name: 'Warehouse', type: 'postgres', endpoint: db.toString(), config: { schema: 'public' } });
    expect((await api.post(`/api/connectors/${warehouse.body.id}/test`)).body).toMatchObject({
      ok: true,
      checks: [
        { name: 'connect', ok: true },
        { name: 'schema', ok: true },
      ],
    });
    const missing = await api.post('/api/connectors', {
      name: 'Warehouse (no schema)',
      type: 'postgres',
      endpoint: db.toString(),
      config: { schema: 'no_such_schema' },
    });
    expect((await api.post(`/api/connectors/${missing.body.id}/test`)).body).toMatchObject({
      ok: false,
      checks: [{ ok: true }, { name: 'schema', ok: false }],
    });
  });

  it('refuses a connector pointed at a private or link-local address (the outbound policy), before any traffic', async () => {
    const metadata = await api.post('/api/connectors', { name: 'Metadata', type: 'http', endpoint: 'http://169.254.169.254/latest' });
    const r = await api.post(`/api/connectors/${metadata.body.id}/test`);
    expect(r.body).toMatchObject({ ok: false, checks: [{ name: 'connect', ok: false, detail: expect.stringMatching(/link-local|refused|not allowed/i) }] });
    const privateMllp = await api.post('/api/connectors', { name: 'Private engine', type: 'hl7-mllp', endpoint: '10.0.0.5:2575' });
    const m = await api.post(`/api/connectors/${privateMllp.body.id}/test`);
    expect(m.body).toMatchObject({ ok: false, checks: [{ name: 'connect', ok: false, detail: expect.stringMatching(/private|refused|not allowed/i) }] });
  });

  it("stops at TLS when the server's certificate is not trusted, saying why", async () => {
    // a self-signed certificate, as a misconfigured or intercepted endpoint would present
    const dir = mkdtempSync(path.join(tmpdir(), 'cf-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    let requests = 0;
    const server = https.createServer({ key: readFileSync(path.join(dir, 'key.pem')), cert: readFileSync(path.join(dir, 'cert.pem')) }, (_req, res) => {
      requests++;
      res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/fhir`;
      const c = await api.post('/api/connectors', {
        name: 'Self-signed FHIR',
        type: 'fhir',
        endpoint: url,
        config: { auth: 'bearer' },
        credentials: { token: 'tok_never_sent_0123456789' },
      });
      const r = await api.post(`/api/connectors/${c.body.id}/test`);
      expect(r.body).toMatchObject({
        ok: false,
        checks: [{ name: 'connect', ok: false, detail: expect.stringMatching(/TLS handshake failed.*self[- ]signed/i) }],
      });
      expect(requests).toBe(0); // the token never went to an unverified server
    } finally {
      server.close();
    }
  });

  it('answers 400 with the field named for what a type needs, and 409 for a name taken', async () => {
    const bad = await api.post('/api/connectors', { name: 'Basic', type: 'fhir', endpoint: fhir.baseUrl, config: { auth: 'basic' } });
    expectError(bad, 400, 'VALIDATION_FAILED');
    expect(bad.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'credentials.username' })]));
    const unknown = await api.post('/api/connectors', { name: 'X', type: 'ftp', endpoint: 'x' });
    expect([unknown.status, unknown.body.error.code, unknown.body.error.details[0].path]).toEqual([400, 'VALIDATION_FAILED', 'type']);
    await api.post('/api/connectors', { name: 'Twice', type: 'http', endpoint: webUrl });
    expectError(await api.post('/api/connectors', { name: 'Twice', type: 'http', endpoint: webUrl }), 409, 'CONNECTOR_NAME_TAKEN');
  });

  it('keeps a connector a deployed pipeline uses, naming the pipeline', async () => {
    const c = await api.post('/api/connectors', { name: 'Reference lab', type: 'hl7-mllp', endpoint: `127.0.0.1:${mllpPort}` });
    const definition = {
      nodes: [
        { id: 'in', type: 'manual-trigger', config: { fields: { message: 'text' } } },
        { id: 'send', type: 'hl7v2-mllp-send', config: { connector: c.body.id } },
      ],
      connections: [{ source: 'in', source_port: 'message', target: 'send', target_port: 'message' }],
    };
    const p = await api.post('/api/pipelines', { name: 'Forward ADT', definition });
    expect((await api.post(`/api/pipelines/${p.body.id}/deploy`)).status).toBe(200);
    const refused = await api.del(`/api/connectors/${c.body.id}`);
    expectError(refused, 409, 'CONNECTOR_IN_USE');
    expect(refused.body.error.message).toContain('"Forward ADT"');

    // and the pipeline uses it for real: an ADT goes out, the receiver's ACK comes back
    const sent = await api.post('/api/execute', {
      pipeline_id: p.body.id,
      inputs: { message: 'MSH|^~\\&|A|B|C|D|20250101||ADT^A01|MSG0001|P|2.5\rPID|1||123^^^H^MR||DOE^JANE' },
    });
    expect(sent.body).toMatchObject({ status: 'completed' });
    const detail = await api.get(`/api/executions/${sent.body.execution_id}`);
    const ack = detail.body.nodes.find((n: { node_id: string }) => n.node_id === 'send').outputs.ack as { segments: { id: string; fields: string[] }[] };
    expect(ack.segments.find((s) => s.id === 'MSA')!.fields.slice(1, 3)).toEqual(['AA', 'MSG0001']);
    // the secret-free record: the execution holds no credential of the connector (it has none) and no endpoint password
    expect(JSON.stringify(detail.body)).not.toContain('credentials');
    await api.post(`/api/pipelines/${p.body.id}/undeploy`);
    expect((await api.del(`/api/connectors/${c.body.id}`)).status).toBe(204);
  });
});
