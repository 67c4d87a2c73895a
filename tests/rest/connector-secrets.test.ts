import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { client, type ApiResponse, type Client } from '../support/client';
import { startFhirServer, type FhirPeer } from '../support/fhir-server';
import { startServer, tempDir, type RunningServer } from '../support/server';

/*
 * Issue 8's "Secrets": no API answer, execution record, log line or database file holds a connector's credential.
 * A server of its own (its output is this test's to read, at LOG_LEVEL debug) on PGlite (its files are this
 * test's to read), with connectors of every kind of credential, tested (some failing, which the server logs),
 * used by pipelines that succeed and by ones that fail calling the peer, sync and on the queue.
 *   write: in (manual-trigger, field patient) ──patient──▶ write (fhir-write create, connector)
 *   query: in (manual-trigger) ──event──▶ query (postgres-query "select 1", connector)
 */
function writePipeline(connector: string) {
  return {
    nodes: [
      { id: 'in', type: 'manual-trigger', config: { fields: { patient: 'fhir-resource' } } },
      { id: 'write', type: 'fhir-write', config: { connector, operation: 'create' } },
    ],
    connections: [{ source: 'in', source_port: 'patient', target: 'write', target_port: 'resource' }],
  };
}

function queryPipeline(connector: string) {
  return {
    nodes: [
      { id: 'in', type: 'manual-trigger', config: {} },
      { id: 'query', type: 'postgres-query', config: { connector, sql: 'select 1 as one' } },
    ],
    connections: [{ source: 'in', source_port: 'event', target: 'query', target_port: 'input' }],
  };
}

/** Every file under `dir`, whole (PGlite's tables, WAL and all). */
function filesUnder(dir: string): { file: string; bytes: Buffer }[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => ({ file: path.join(e.parentPath, e.name), bytes: fs.readFileSync(path.join(e.parentPath, e.name)) }));
}

const PATIENT = { resourceType: 'Patient', name: [{ family: 'Secret-Test', given: ['Ada'] }], gender: 'female' };

describe('connector credentials stay out of answers, execution records, logs and the database', () => {
  const org = { id: 'org-secrets', key: 'cfk_test_connector_secrets_key_0123456789' };
  const dataDir = tempDir('secrets');
  let server: RunningServer;
  let api: Client;
  const answers: string[] = [];
  let oauth: FhirPeer;
  let basic: FhirPeer;
  let bearer: FhirPeer;
  const wrongToken = `tok_expired_${randomBytes(12).toString('hex')}`;
  const wrongSecret = `wrong_secret_${randomBytes(12).toString('hex')}`;
  const dbPassword = `pw_${randomBytes(12).toString('hex')}`;

  beforeAll(async () => {
    [oauth, basic, bearer] = await Promise.all([startFhirServer({ auth: 'oauth2' }), startFhirServer({ auth: 'basic' }), startFhirServer({ auth: 'bearer' })]);
    server = await startServer({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'debug',
      BOOTSTRAP_ORG_ID: org.id,
      BOOTSTRAP_API_KEY: org.key,
      RATE_LIMIT_PER_MINUTE: '1000000',
    });
    const plain = client(server.url, org);
    // every answer the server gives is kept, to be searched at the end
    const recorded = async (r: Promise<ApiResponse>) => {
      const answer = await r;
      answers.push(answer.text);
      return answer;
    };
    api = {
      ...plain,
      get: (p, h) => recorded(plain.get(p, h)),
      post: (p, b, h) => recorded(plain.post(p, b, h)),
      put: (p, b, h) => recorded(plain.put(p, b, h)),
      del: (p, h) => recorded(plain.del(p, h)),
    };
  });
  afterAll(async () => {
    await server?.stop();
    await Promise.all([oauth, basic, bearer].map((p) => p?.close()));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates, tests and uses connectors, and no secret is anywhere', async () => {
    const pg = new URL(inject('postgresUrl'));
    pg.password = dbPassword; // the machine's Postgres trusts loopback: the password is taken and ignored
    const missingDb = new URL(pg);
    missingDb.pathname = '/no_such_database_for_secrets';
    const connectors = {
      'FHIR oauth': {
        type: 'fhir',
        endpoint: oauth.baseUrl,
        config: { auth: 'oauth2', token_url: oauth.tokenUrl },
        credentials: { client_id: oauth.credentials.clientId, client_secret: oauth.credentials.clientSecret },
      },
      'FHIR oauth wrong': {
        type: 'fhir',
        endpoint: oauth.baseUrl,
        config: { auth: 'oauth2', token_url: oauth.tokenUrl },
        credentials: { client_id: oauth.credentials.clientId, client_secret: wrongSecret },
      },
      'FHIR basic': {
        type: 'fhir',
        endpoint: basic.baseUrl,
        config: { auth: 'basic' },
        credentials: { username: basic.credentials.username, password: basic.credentials.password },
      },
      'FHIR bearer': { type: 'fhir', endpoint: bearer.baseUrl, config: { auth: 'bearer' }, credentials: { token: bearer.credentials.token } },
      'FHIR bearer expired': { type: 'fhir', endpoint: bearer.baseUrl, config: { auth: 'bearer' }, credentials: { token: wrongToken } },
      Warehouse: { type: 'postgres', endpoint: pg.toString() },
      'Warehouse gone': { type: 'postgres', endpoint: missingDb.toString() },
    };
    const ids: Record<string, string> = {};
    for (const [name, c] of Object.entries(connectors)) {
      const created = await api.post('/api/connectors', { name, ...c });
      expect(created.status, created.text).toBe(201);
      ids[name] = created.body.id;
    }
    await api.get('/api/connectors');

    // tested for real: the right credentials pass, the wrong ones fail (and the server logs why)
    const tested: Record<string, boolean> = {};
    for (const name of Object.keys(connectors)) tested[name] = (await api.post(`/api/connectors/${ids[name]}/test`)).body.ok;
    expect(tested).toEqual({
      'FHIR oauth': true,
      'FHIR oauth wrong': false,
      'FHIR basic': true,
      'FHIR bearer': true,
      'FHIR bearer expired': false,
      Warehouse: true,
      'Warehouse gone': false,
    });

    // used by deployed pipelines, sync and on the queue; the expired token fails calling the peer
    const runs: { name: string; status: string; id: string }[] = [];
    const run = async (name: string, definition: object, inputs: object) => {
      const p = await api.post('/api/pipelines', { name: `uses ${name}`, definition });
      expect((await api.post(`/api/pipelines/${p.body.id}/deploy`)).status).toBe(200);
      const sync = await api.post('/api/execute', { pipeline_id: p.body.id, inputs });
      runs.push({ name, status: sync.body.status, id: sync.body.execution_id });
      const queued = await api.post('/api/execute', { pipeline_id: p.body.id, inputs, async: true });
      let detail = await api.get(`/api/executions/${queued.body.execution_id}`);
      for (let i = 0; i < 300 && ['queued', 'running'].includes(detail.body.status); i++) {
        await new Promise((r) => setTimeout(r, 100));
        detail = await api.get(`/api/executions/${queued.body.execution_id}`);
      }
      runs.push({ name, status: detail.body.status, id: queued.body.execution_id });
    };
    for (const name of ['FHIR oauth', 'FHIR basic', 'FHIR bearer', 'FHIR bearer expired']) await run(name, writePipeline(name), { patient: PATIENT });
    await run('Warehouse', queryPipeline('Warehouse'), {});
    expect(runs.map((r) => `${r.name}: ${r.status}`)).toEqual(
      ['FHIR oauth', 'FHIR basic', 'FHIR bearer', 'FHIR bearer expired', 'Warehouse'].flatMap((n) =>
        Array(2).fill(`${n}: ${n === 'FHIR bearer expired' ? 'failed' : 'completed'}`),
      ),
    );
    for (const r of runs) await api.get(`/api/executions/${r.id}`);
    expect(answers.join('\n')).toContain('FHIR_AUTH_FAILED'); // the failed runs' records were read back

    // everything the server wrote, once it has stopped (PGlite's files are complete then)
    await server.stop();
    const log = server.output();
    expect(log).toContain('connector test failed: \\"FHIR bearer expired\\"'); // the capture works: failures are logged
    expect(log).toContain('connector test failed: \\"Warehouse gone\\"');
    const files = filesUnder(dataDir);
    // the files hold what was stored (a connector's name), so what they do not hold is not merely unflushed
    expect(files.some((f) => f.bytes.includes('Warehouse gone'))).toBe(true);

    const basicHeader = Buffer.from(`${basic.credentials.username}:${basic.credentials.password}`).toString('base64');
    const secrets = {
      'OAuth2 client_secret': oauth.credentials.clientSecret,
      'a wrong client_secret': wrongSecret,
      'basic password': basic.credentials.password,
      'basic Authorization header': basicHeader,
      'bearer token': bearer.credentials.token,
      'an expired bearer token': wrongToken,
      'connection-string password': dbPassword,
    };
    for (const [what, secret] of Object.entries(secrets)) {
      expect(log.includes(secret), `${what} in the server's log`).toBe(false);
      expect(
        answers.some((a) => a.includes(secret)),
        `${what} in an API answer or execution record`,
      ).toBe(false);
      expect(
        files.filter((f) => f.bytes.includes(secret)).map((f) => f.file),
        `${what} in the database's files`,
      ).toEqual([]);
    }
  });
});
