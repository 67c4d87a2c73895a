import type { Bundle, Patient } from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FhirPeer, startFhirServer } from '../../../tests/support/fhir-server';
import { createOutbound } from '@/server/outbound/outbound';
import { failure, runNode, SYNTHEA_PATIENTS, testContext, testServices } from '../../../tests/support/engine/node-context';
import { fhirQueryNode as fhirQuery } from './fhir-query.execute';

let peer: FhirPeer;

beforeAll(async () => {
  peer = await startFhirServer({ auth: 'oauth2' });
  // the sample patients, each with a hospital MRN, stored straight into the server's repository
  for (const [i, p] of SYNTHEA_PATIENTS.entries()) {
    await peer.repo.createResource({ ...(p as Patient), id: undefined, identifier: [{ system: 'urn:mrn', value: `MRN-${i}` }] });
  }
});
afterAll(() => peer?.close());

function ctx(overrides: Parameters<typeof testServices>[0] = {}) {
  return testContext({ services: testServices({ fetch: globalThis.fetch, connector: peer.connectorService(), ...overrides }) });
}

describe('fhir-query', () => {
  it('dropped with its default config, fails saying to set the connector', async () => {
    const e = await failure(runNode(fhirQuery, {}, {}, ctx()));
    expect(e.code).toBe('CONNECTOR_REQUIRED');
    expect(e.message).toContain('`connector`');
  });

  it('searches with a placeholder filled from the params input', async () => {
    const c = ctx();
    const r = await runNode(fhirQuery, { connector: 'hospital-fhir', query: 'Patient?identifier=urn:mrn|{{mrn}}' }, { params: { mrn: 'MRN-2' } }, c);
    const bundle = r.outputs.bundle as Bundle<Patient>;
    expect(bundle.type).toBe('searchset');
    expect(bundle.entry).toHaveLength(1);
    expect(bundle.entry![0]!.resource!.name?.[0]?.family).toBe('Schmitt836');
    expect(r.outputs.resource).toBeUndefined();
  });

  it('follows next links up to max_pages and says when it stopped short', async () => {
    const all = await runNode(fhirQuery, { connector: 'hospital-fhir', query: 'Patient?address-state=KS&_count=1' }, {}, ctx());
    expect((all.outputs.bundle as Bundle).entry).toHaveLength(SYNTHEA_PATIENTS.length);
    const c = ctx();
    const cut = await runNode(fhirQuery, { connector: 'hospital-fhir', query: 'Patient?address-state=KS&_count=1', max_pages: 2 }, {}, c);
    const bundle = cut.outputs.bundle as Bundle;
    expect(bundle.entry).toHaveLength(2);
    expect(bundle.link?.some((l) => l.relation === 'next')).toBe(true);
    expect(c.logs.some((l) => l.level === 'warn' && l.message.includes('cut short'))).toBe(true);
  });

  it('reads one resource by Type/id, as a resource and a one-entry bundle', async () => {
    const stored = await peer.repo.createResource<Patient>({ resourceType: 'Patient', name: [{ family: 'Readme' }] });
    const r = await runNode(fhirQuery, { connector: 'hospital-fhir', mode: 'read', query: 'Patient/{{id}}' }, { params: { id: stored.id } }, ctx());
    expect((r.outputs.resource as Patient).name?.[0]?.family).toBe('Readme');
    expect((r.outputs.bundle as Bundle).entry?.[0]?.resource?.id).toBe(stored.id);
  });

  it("a read of a missing resource fails with the server's OperationOutcome text", async () => {
    const e = await failure(runNode(fhirQuery, { connector: 'hospital-fhir', mode: 'read', query: 'Patient/nobody' }, {}, ctx()));
    expect(e.code).toBe('FHIR_ERROR');
    expect(e.message).toMatch(/404: error not-found: Not found/);
  });

  it('a placeholder without a value fails naming it, before any request', async () => {
    const before = peer.requests;
    const e = await failure(runNode(fhirQuery, { connector: 'hospital-fhir', query: 'Patient?identifier={{mrn}}' }, { params: { id: 'x' } }, ctx()));
    expect(e.code).toBe('FHIR_QUERY_INVALID');
    expect(e.message).toContain('{{mrn}}');
    expect(peer.requests).toBe(before);
  });

  it('a wrong client secret fails with FHIR_AUTH_FAILED, the secret in no message or log', async () => {
    const creds = { ...peer.connectorAuth('oauth2'), client_secret: 'not-the-secret-9876' };
    const c = ctx({ connector: peer.connectorService('other-fhir', 'oauth2', creds) });
    const e = await failure(runNode(fhirQuery, { connector: 'other-fhir' }, {}, c));
    expect(e.code).toBe('FHIR_AUTH_FAILED');
    expect(`${e.message}\n${c.logs.map((l) => l.message).join('\n')}`).not.toContain('not-the-secret-9876');
  });

  it('a connector whose auth lacks a setting fails naming it, before any request', async () => {
    const before = peer.requests;
    const creds = { kind: 'oauth2', token_url: peer.tokenUrl, client_id: peer.credentials.clientId };
    const e = await failure(runNode(fhirQuery, { connector: 'half-fhir' }, {}, ctx({ connector: peer.connectorService('half-fhir', 'oauth2', creds) })));
    expect(e.code).toBe('FHIR_CONFIG_INVALID');
    expect(e.message).toContain('client_secret');
    expect(peer.requests).toBe(before);
  });

  it('an unknown connector fails with CONNECTOR_NOT_FOUND', async () => {
    const e = await failure(runNode(fhirQuery, { connector: 'nope' }, {}, ctx()));
    expect(e.code).toBe('CONNECTOR_NOT_FOUND');
  });

  it('goes through the outbound policy: loopback is refused unless allowed, and then the peer is reached', async () => {
    const limits = { timeoutMs: 10_000, maxBytes: 10 * 1024 * 1024 };
    const before = peer.requests;
    const refused = await failure(runNode(fhirQuery, { connector: 'hospital-fhir' }, {}, ctx({ fetch: createOutbound({ allow: [], ...limits }).fetch })));
    expect(refused.code).toBe('FHIR_UNREACHABLE');
    expect(refused.message).toMatch(/OUTBOUND_ALLOW/);
    expect(peer.requests).toBe(before);
    const allowed = await runNode(
      fhirQuery,
      { connector: 'hospital-fhir', query: 'Patient?identifier=urn:mrn|MRN-0' },
      {},
      ctx({ fetch: createOutbound({ allow: ['127.0.0.0/8'], ...limits }).fetch }),
    );
    expect((allowed.outputs.bundle as Bundle).entry).toHaveLength(1);
  });
});
