import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectors } from '@/server/db/schema';
import type { Runtime } from '@/server/runtime';
import { memoryRuntime, orgCaller } from '../../../../tests/support/runtime';
import { CONNECTOR_CACHE_TTL_MS, connectorHandle } from './handle';

const SECRET = 'sk_live_0123456789abcdefSECRET';

describe('connectors', () => {
  let rt: Runtime;
  beforeAll(async () => {
    rt = await memoryRuntime();
  }, 60_000);
  afterAll(() => rt.database.close());

  it('stores credentials encrypted, shows them masked, keeps them when a form sends the mask back', async () => {
    const a = await orgCaller(rt, 'org-conn-a');
    const created = await a.connectors.create({
      name: 'Hospital FHIR',
      type: 'fhir',
      endpoint: 'https://fhir.hospital.example/r4/',
      config: { auth: 'oauth2', token_url: 'https://auth.hospital.example/token', scope: 'system/*.read' },
      credentials: { client_id: 'clinflow-etl', client_secret: SECRET },
    });
    expect(created).toMatchObject({
      endpoint: 'https://fhir.hospital.example/r4',
      config: { auth: 'oauth2' },
      credentials: { client_id: '••••-etl', client_secret: '••••CRET' },
    });

    // the database holds an AES-GCM envelope, no credential in clear
    const [row] = await rt.db.select().from(connectors).where(eq(connectors.id, created.id));
    expect(JSON.stringify(row)).not.toContain(SECRET);
    expect(JSON.stringify(row)).not.toContain('clinflow-etl');
    expect(JSON.parse(row!.secrets!)).toMatchObject({ v: 1, kid: expect.any(String), iv: expect.any(String), tag: expect.any(String) });

    // the running node gets them in clear; the API never
    const handle = await connectorHandle(rt.db, 'org-conn-a', 'Hospital FHIR', 'fhir');
    expect(handle.credentials).toEqual({ client_id: 'clinflow-etl', client_secret: SECRET });
    const updated = await a.connectors.update({ id: created.id, name: 'Hospital FHIR (prod)', credentials: { client_id: '••••', client_secret: '••••CRET' } });
    expect(updated.name).toBe('Hospital FHIR (prod)');
    expect((await connectorHandle(rt.db, 'org-conn-a', created.id, 'fhir')).credentials).toEqual({ client_id: 'clinflow-etl', client_secret: SECRET });
    await a.connectors.update({ id: created.id, credentials: { client_secret: 'a-new-secret-value-9876' } });
    expect((await connectorHandle(rt.db, 'org-conn-a', created.id, 'fhir')).credentials.client_secret).toBe('a-new-secret-value-9876');
  });

  it('checks what each type needs, with the field named', async () => {
    const a = await orgCaller(rt, 'org-conn-b');
    const fail = (input: Parameters<typeof a.connectors.create>[0]) =>
      a.connectors.create(input).then(
        () => null,
        (e: { cause?: { code?: string; details?: unknown } }) => e.cause,
      );
    expect(await fail({ name: 'x', type: 'fhir', endpoint: 'https://f.example', config: { auth: 'basic' }, credentials: { username: 'u' } })).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ path: 'credentials.password' }],
    });
    expect(await fail({ name: 'x', type: 'hl7-mllp', endpoint: 'engine.example' })).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ path: 'endpoint' }],
    });
    expect(await fail({ name: 'x', type: 'fhir', endpoint: 'https://user:pw@f.example' })).toMatchObject({
      details: [{ path: 'endpoint', message: expect.stringContaining('not in the URL') }],
    });
    // an MLLP endpoint gives host and port; a Postgres connection string gives up its password
    const mllp = await a.connectors.create({ name: 'Lab feed', type: 'hl7-mllp', endpoint: 'mllp://lab.example:2575' });
    expect(mllp).toMatchObject({ endpoint: 'lab.example:2575', config: { host: 'lab.example', port: 2575, tls: false, encoding: 'utf-8' }, credentials: {} });
    const pg = await a.connectors.create({ name: 'Warehouse', type: 'postgres', endpoint: 'postgres://etl:s3cret-Passw0rd!@db.example:5432/clinical' });
    expect(pg).toMatchObject({ endpoint: 'postgres://etl@db.example:5432/clinical', credentials: { password: '••••0rd!' } });
    await expect(a.connectors.create({ name: 'Lab feed', type: 'http', endpoint: 'https://h.example' })).rejects.toMatchObject({
      cause: { code: 'CONNECTOR_NAME_TAKEN' },
    });
  });

  it('refuses to delete a connector a deployed pipeline uses, naming it; other organizations see nothing', async () => {
    const a = await orgCaller(rt, 'org-conn-c');
    const b = await orgCaller(rt, 'org-conn-d');
    const c = await a.connectors.create({
      name: 'Payer API',
      type: 'http',
      endpoint: 'https://payer.example/v1',
      config: { auth: 'bearer' },
      credentials: { token: 'tok_1234567890abcdef' },
    });
    const definition = {
      nodes: [
        { id: 'in', type: 'manual-trigger', config: {}, position: { x: 0, y: 0 } },
        { id: 'send', type: 'http-request', config: { url: 'https://payer.example/v1/claims', connector: 'Payer API' }, position: { x: 0, y: 0 } },
      ],
      connections: [{ source: 'in', source_port: 'event', target: 'send', target_port: 'body' }],
    };
    const p = await a.pipelines.create({ name: 'Claims out', description: '', definition });
    await rt.db.execute(`update pipelines set status = 'deployed', deployed_version = version where id = '${p.id}'`); // as a deploy leaves it
    await expect(a.connectors.remove({ id: c.id })).rejects.toMatchObject({
      cause: { code: 'CONNECTOR_IN_USE', message: expect.stringContaining('"Claims out"') },
    });

    await expect(b.connectors.get({ id: c.id })).rejects.toMatchObject({ cause: { code: 'CONNECTOR_NOT_FOUND' } });
    await expect(b.connectors.remove({ id: c.id })).rejects.toMatchObject({ cause: { code: 'CONNECTOR_NOT_FOUND' } });
    expect((await b.connectors.list({ limit: 100, offset: 0 })).connectors).toEqual([]);
    await expect(connectorHandle(rt.db, 'org-conn-d', 'Payer API', 'http')).rejects.toMatchObject({ code: 'CONNECTOR_NOT_FOUND' });
    await expect(connectorHandle(rt.db, 'org-conn-c', 'Payer API', 'fhir')).rejects.toMatchObject({ code: 'CONNECTOR_TYPE_MISMATCH' });

    await rt.db.execute(`update pipelines set status = 'active' where id = '${p.id}'`);
    await a.connectors.remove({ id: c.id });
    expect((await a.connectors.list({ limit: 100, offset: 0 })).total_count).toBe(0);
  });

  it('lists the types with the JSON Schema of their settings and credentials', async () => {
    const a = await orgCaller(rt, 'org-conn-e');
    const { types } = await a.connectors.types({});
    expect(types.map((t) => t.type)).toEqual(['fhir', 'hl7-mllp', 'http', 'postgres', 'smtp']);
    const fhir = types.find((t) => t.type === 'fhir')!;
    expect(fhir.config_schema).toMatchObject({ type: 'object', properties: { auth: { enum: ['none', 'basic', 'bearer', 'oauth2'] } } });
    expect(fhir.credentials_schema).toMatchObject({ properties: { client_secret: { type: 'string' } } });
    expect(fhir.auth_requires.oauth2).toEqual(['client_id', 'client_secret']);
    // settings that only one authentication uses say so, for the form to show them only then
    expect(fhir.config_schema).toMatchObject({ properties: { token_url: { 'x-auth': 'oauth2' }, scope: { 'x-auth': 'oauth2' } } });
  });
  it('hands running nodes a kept connector: changes here at once, changes elsewhere within a second, refusals never kept', async () => {
    const a = await orgCaller(rt, 'org-conn-cache');
    const missing = await connectorHandle(rt.db, 'org-conn-cache', 'Lab FHIR', 'fhir').catch((e: { code?: string }) => e.code);
    expect(missing).toBe('CONNECTOR_NOT_FOUND');
    // a refusal is not kept: the connector made now is found by the next run
    const created = await a.connectors.create({ name: 'Lab FHIR', type: 'fhir', endpoint: 'https://lab.example/r4', config: { auth: 'none' } });
    const first = await connectorHandle(rt.db, 'org-conn-cache', 'Lab FHIR', 'fhir');
    expect(first.endpoint).toBe('https://lab.example/r4');
    expect(Object.isFrozen(first.config)).toBe(true);

    // another process changes it (straight in the database): seen within CONNECTOR_CACHE_TTL_MS
    await rt.db.update(connectors).set({ endpoint: 'https://lab2.example/r4' }).where(eq(connectors.id, created.id));
    await new Promise((r) => setTimeout(r, CONNECTOR_CACHE_TTL_MS + 100));
    expect((await connectorHandle(rt.db, 'org-conn-cache', 'Lab FHIR', 'fhir')).endpoint).toBe('https://lab2.example/r4');

    // deleted in this process: the next run is refused at once
    await a.connectors.remove({ id: created.id });
    const gone = await connectorHandle(rt.db, 'org-conn-cache', 'Lab FHIR', 'fhir').catch((e: { code?: string }) => e.code);
    expect(gone).toBe('CONNECTOR_NOT_FOUND');
  });
});
