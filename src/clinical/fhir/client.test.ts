import type { Bundle, Patient } from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FhirPeer, startFhirServer, SYNTHEA_GROUP, syntheaCounts } from '../../../tests/support/fhir-server';
import { FhirClient, type FhirAuth, FhirError } from './client';
import { kickOffExport, readExportFile, waitForExport } from './client-bulk';

let peer: FhirPeer;

beforeAll(async () => {
  peer = await startFhirServer({ auth: 'oauth2' });
});
afterAll(() => peer?.close());

/** A client with its own token cache entry, so tests do not share tokens. */
function client(auth: FhirAuth = peer.connectorAuth() as FhirAuth, cacheKey = `test-${Math.random()}`) {
  return new FhirClient({ baseUrl: peer.baseUrl, auth, fetch: globalThis.fetch, cacheKey });
}

async function failureOf(run: Promise<unknown>): Promise<FhirError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof FhirError)) throw new Error(`expected a FhirError, got ${String(error)}`);
  return error;
}

describe('FhirClient against a FHIR server', () => {
  it('creates and reads a resource, with the Location the server gives', async () => {
    const c = client();
    const created = await c.create({ resourceType: 'Patient', name: [{ family: 'Medhurst46', given: ['Sumiko254'] }], birthDate: '1927-05-21' });
    expect(created.status).toBe(201);
    const id = created.resource?.id;
    expect(id).toBeTruthy();
    expect(created.location).toContain(`/Patient/${id}/_history/`);
    const read = await c.read<Patient>('Patient', id!);
    expect(read.name?.[0]?.family).toBe('Medhurst46');
  });

  it('a read of a missing resource fails with the OperationOutcome text', async () => {
    const e = await failureOf(client().read('Patient', 'does-not-exist'));
    expect(e.code).toBe('FHIR_ERROR');
    expect(e.status).toBe(404);
    expect(e.message).toContain('Not found');
  });

  it('follows next links and combines the pages into one searchset Bundle, within the limits', async () => {
    const c = client();
    for (let i = 0; i < 7; i++) await c.create({ resourceType: 'Patient', name: [{ family: 'Pager', given: [`P${i}`] }] });
    const all = await c.search('Patient?family=Pager&_count=2');
    expect(all.type).toBe('searchset');
    expect(all.entry).toHaveLength(7);
    expect(new Set(all.entry!.map((e) => e.resource?.id)).size).toBe(7);
    expect(all.link?.find((l) => l.relation === 'next')).toBeUndefined();
    expect(peer.seen.filter((s) => s.path.endsWith('/Patient') && s.method === 'GET').length).toBeGreaterThanOrEqual(4);

    const twoPages = await c.search('Patient?family=Pager&_count=2', { maxPages: 2 });
    expect(twoPages.entry).toHaveLength(4);
    expect(twoPages.link?.find((l) => l.relation === 'next')?.url).toContain('_offset=4');

    const five = await c.search('Patient?family=Pager&_count=2', { maxResources: 5 });
    expect(five.entry).toHaveLength(5);
  });

  it('a conditional create sent twice leaves one resource', async () => {
    const c = client();
    const patient: Patient = { resourceType: 'Patient', identifier: [{ system: 'urn:mrn', value: 'MRN-4242' }], name: [{ family: 'Once' }] };
    const first = await c.create(patient, { ifNoneExist: 'identifier=urn:mrn|MRN-4242' });
    const second = await c.create(patient, { ifNoneExist: 'identifier=urn:mrn|MRN-4242' });
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    expect(second.resource?.id).toBe(first.resource?.id);
    const found = await c.search('Patient?identifier=urn:mrn|MRN-4242');
    expect(found.entry).toHaveLength(1);
  });

  it('updates a resource with PUT', async () => {
    const c = client();
    const created = await c.create({ resourceType: 'Patient', name: [{ family: 'Before' }] });
    const updated = await c.update({ ...(created.resource as Patient), name: [{ family: 'After' }] });
    expect(updated.status).toBe(200);
    expect((await c.read<Patient>('Patient', created.resource!.id!)).name?.[0]?.family).toBe('After');
  });

  it('posts a transaction Bundle whose entries reference each other', async () => {
    const c = client();
    const bundle: Bundle = {
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [
        {
          fullUrl: 'urn:uuid:9a1b0f52-0000-4000-8000-000000000001',
          resource: { resourceType: 'Patient', name: [{ family: 'Txn' }] },
          request: { method: 'POST', url: 'Patient' },
        },
        {
          resource: {
            resourceType: 'Observation',
            status: 'final',
            code: { text: 'Heart rate' },
            subject: { reference: 'urn:uuid:9a1b0f52-0000-4000-8000-000000000001' },
          },
          request: { method: 'POST', url: 'Observation' },
        },
      ],
    };
    const result = await c.transaction(bundle);
    const response = result.resource as Bundle;
    expect(response.type).toBe('transaction-response');
    expect(response.entry?.map((e) => e.response?.status)).toEqual(['201', '201']);
    const patientId = response.entry![0]!.resource!.id;
    const obs = await c.search(`Observation?subject=Patient/${patientId}`);
    expect(obs.entry).toHaveLength(1);
  });
});

describe('FhirClient authentication', () => {
  it('reuses one OAuth2 token across calls and refreshes it once after a 401', async () => {
    const c = client();
    const before = peer.stats.tokensIssued;
    await c.search('Patient?_count=1', { maxPages: 1 });
    await c.search('Patient?_count=1', { maxPages: 1 });
    await c.capabilities();
    expect(peer.stats.tokensIssued - before).toBe(1);
    peer.revokeTokens(); // the server stops taking it before its announced expiry
    await c.search('Patient?_count=1', { maxPages: 1 });
    expect(peer.stats.tokensIssued - before).toBe(2);
  });

  it('fetches a new token once the cached one has expired', async () => {
    const shortLived = await startFhirServer({ auth: 'oauth2', tokenLifetimeS: 1 });
    try {
      const c = new FhirClient({ baseUrl: shortLived.baseUrl, auth: shortLived.connectorAuth() as FhirAuth, fetch: globalThis.fetch, cacheKey: 'short' });
      await c.capabilities();
      await new Promise((r) => setTimeout(r, 1100)); // let the 1 s token expire
      await c.capabilities();
      expect(shortLived.stats.tokensIssued).toBe(2);
    } finally {
      await shortLived.close();
    }
  });

  it('a wrong client secret fails with FHIR_AUTH_FAILED, never echoing the secret', async () => {
    const auth = { ...(peer.connectorAuth() as Extract<FhirAuth, { kind: 'oauth2' }>), client_secret: 'wrong-secret-123' };
    const e = await failureOf(client(auth).read('Patient', 'x'));
    expect(e.code).toBe('FHIR_AUTH_FAILED');
    expect(e.message).toContain('invalid_client');
    expect(e.message).not.toContain('wrong-secret-123');
  });

  it('basic, bearer and none authenticate as the server expects; a wrong bearer token gets 401', async () => {
    for (const kind of ['basic', 'bearer', 'none'] as const) {
      const other = await startFhirServer({ auth: kind });
      try {
        const c = new FhirClient({ baseUrl: other.baseUrl, auth: other.connectorAuth() as FhirAuth, fetch: globalThis.fetch });
        expect((await c.capabilities()).resourceType).toBe('CapabilityStatement');
        if (kind === 'bearer') {
          const bad = new FhirClient({ baseUrl: other.baseUrl, auth: { kind: 'bearer', token: 'nope' }, fetch: globalThis.fetch });
          const e = await failureOf(bad.capabilities());
          expect(e).toMatchObject({ code: 'FHIR_AUTH_FAILED', status: 401 });
        }
      } finally {
        await other.close();
      }
    }
  });

  it('an unreachable server fails with FHIR_UNREACHABLE; an aborted call with FHIR_CANCELLED', async () => {
    const closed = await startFhirServer({ auth: 'none' });
    await closed.close();
    const c = new FhirClient({ baseUrl: closed.baseUrl, auth: { kind: 'none' }, fetch: globalThis.fetch });
    expect((await failureOf(c.capabilities())).code).toBe('FHIR_UNREACHABLE');
    const aborted = new AbortController();
    aborted.abort();
    expect((await failureOf(client().capabilities({ signal: aborted.signal }))).code).toBe('FHIR_CANCELLED');
  });
});

describe('Bulk Data $export', () => {
  async function exportAll(c: FhirClient, request: Parameters<typeof kickOffExport>[1]) {
    const status = await kickOffExport(c, request);
    const manifest = await waitForExport(c, status, { maxWaitMs: 60_000 });
    const counts: Record<string, number> = {};
    for (const file of manifest.output) {
      for await (const resource of readExportFile(c, file, manifest)) {
        expect(resource.resourceType).toBe(file.type);
        counts[file.type] = (counts[file.type] ?? 0) + 1;
      }
    }
    return { manifest, counts };
  }

  it('exports the whole Synthea sample at system level, every file streamed, counts as in the files', async () => {
    const { manifest, counts } = await exportAll(client(), { level: 'system' });
    expect(manifest.requiresAccessToken).toBe(true);
    expect(counts).toEqual(syntheaCounts());
    expect(counts.Patient).toBe(13);
    expect(peer.runningExports).toBe(0);
  });

  it('exports a group and patients with _type, leaving out what the request excludes', async () => {
    const c = client();
    const group = await exportAll(c, { level: 'group', groupId: SYNTHEA_GROUP, types: ['Patient', 'Condition', 'Organization'] });
    const files = syntheaCounts();
    // Organization is outside the Patient compartment: a group export does not carry it
    expect(group.counts).toEqual({ Patient: files.Patient, Condition: files.Condition });
    const patients = await exportAll(c, { level: 'patient', types: ['Immunization'] });
    expect(patients.counts).toEqual({ Immunization: files.Immunization });
    const recent = await exportAll(c, { level: 'system', since: new Date(Date.now() + 3_600_000).toISOString() });
    expect(recent.counts).toEqual({});
  });

  it("an unknown group fails with the server's OperationOutcome", async () => {
    const e = await failureOf(kickOffExport(client(), { level: 'group', groupId: 'no-such-group' }));
    expect(e.code).toBe('FHIR_ERROR');
    expect(e.message).toContain('Group/no-such-group not found');
  });

  it('gives up past the time limit and cancels the export on the server', async () => {
    const c = client();
    peer.holdExports();
    try {
      const status = await kickOffExport(c, { level: 'system' });
      expect(peer.runningExports).toBe(1);
      const e = await failureOf(waitForExport(c, status, { maxWaitMs: 1500 }));
      expect(e.code).toBe('FHIR_EXPORT_TIMEOUT');
      expect(peer.runningExports).toBe(0);
    } finally {
      peer.releaseExports();
    }
  });
});
