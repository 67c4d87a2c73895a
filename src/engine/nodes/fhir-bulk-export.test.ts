import type { Resource } from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FhirPeer, startFhirServer, SYNTHEA_GROUP, syntheaCounts } from '../../../tests/support/fhir-server';
import { createOutbound } from '@/server/outbound/outbound';
import { failure, runNode, testContext, testServices } from '../../../tests/support/engine/node-context';
import { fhirBulkExportNode as fhirBulkExport } from './fhir-bulk-export.execute';

let peer: FhirPeer;

beforeAll(async () => {
  peer = await startFhirServer({ auth: 'oauth2' });
});
afterAll(() => peer?.close());

function ctx(testMode = false, fetch: typeof globalThis.fetch = globalThis.fetch) {
  return testContext({ testMode, services: testServices({ fetch, connector: peer.connectorService() }) });
}

describe('fhir-bulk-export', () => {
  it('dropped with its default config, fails saying to set the connector', async () => {
    const e = await failure(runNode(fhirBulkExport, {}, {}, ctx()));
    expect(e.code).toBe('CONNECTOR_REQUIRED');
  });

  it('exports the Synthea sample at system level: every resource, counts as in the files', async () => {
    // through the outbound-policy fetch nodes get in production (loopback allowed, as in tests)
    const outbound = createOutbound({ allow: ['127.0.0.0/8'], timeoutMs: 30_000, maxBytes: 10 * 1024 * 1024 });
    const r = await runNode(fhirBulkExport, { connector: 'hospital-fhir' }, {}, ctx(false, outbound.fetch));
    const files = syntheaCounts();
    expect(r.outputs.counts).toEqual(files);
    const resources = r.outputs.resources as Resource[];
    expect(resources).toHaveLength(Object.values(files).reduce((a, b) => a + b, 0));
    expect(resources.filter((x) => x.resourceType === 'Patient')).toHaveLength(13);
    expect(peer.runningExports).toBe(0);
    // once read, the server is told it may delete the files
    expect(peer.seen.at(-1)).toMatchObject({ method: 'DELETE', path: expect.stringContaining('/$export-status/') });
  });

  it('a group export of some types with output counts keeps no resources', async () => {
    const r = await runNode(
      fhirBulkExport,
      { connector: 'hospital-fhir', level: 'group', group_id: SYNTHEA_GROUP, types: ['Patient', 'Encounter'], output: 'counts' },
      {},
      ctx(),
    );
    const files = syntheaCounts();
    expect(r.outputs).toEqual({ counts: { Patient: files.Patient, Encounter: files.Encounter } });
  });

  it('fails rather than output more than max_resources', async () => {
    const e = await failure(runNode(fhirBulkExport, { connector: 'hospital-fhir', level: 'patient', types: ['Condition'], max_resources: 100 }, {}, ctx()));
    expect(e.code).toBe('BULK_EXPORT_TOO_LARGE');
    expect(e.message).toContain('max_resources');
  });

  it('a group the server does not know fails with its OperationOutcome', async () => {
    const e = await failure(runNode(fhirBulkExport, { connector: 'hospital-fhir', level: 'group', group_id: 'unknown-group' }, {}, ctx()));
    expect(e.code).toBe('FHIR_ERROR');
    expect(e.message).toContain('Group/unknown-group not found');
  });

  it('runs at most 5 exports per organization: the 6th fails with BULK_EXPORT_LIMIT or waits, per on_limit', async () => {
    const config = { connector: 'hospital-fhir', types: ['Patient'], output: 'counts' as const };
    const started = peer.stats.exportsStarted;
    peer.holdExports();
    const five = Array.from({ length: 5 }, () => runNode(fhirBulkExport, config, {}, ctx()));
    try {
      await vi.waitFor(() => expect(peer.runningExports).toBe(5), { timeout: 20_000 });
      const refused = await failure(runNode(fhirBulkExport, { ...config, on_limit: 'fail' }, {}, ctx()));
      expect(refused.code).toBe('BULK_EXPORT_LIMIT');
      const sixth = runNode(fhirBulkExport, { ...config, on_limit: 'wait' }, {}, ctx());
      peer.releaseExports();
      const results = await Promise.all([...five, sixth]);
      for (const r of results) expect(r.outputs.counts).toEqual({ Patient: 13 });
      // the refused one never reached the server; the waiting one started only once a slot was free
      expect(peer.stats.exportsStarted - started).toBe(6);
      expect(peer.stats.maxConcurrentExports).toBe(5);
    } finally {
      peer.releaseExports();
      await Promise.allSettled(five);
    }
  });

  it('past max_wait_s it cancels the export on the server and fails', async () => {
    peer.holdExports();
    try {
      const e = await failure(runNode(fhirBulkExport, { connector: 'hospital-fhir', max_wait_s: 2 }, {}, ctx()));
      expect(e.code).toBe('FHIR_EXPORT_TIMEOUT');
      expect(peer.runningExports).toBe(0);
    } finally {
      peer.releaseExports();
    }
  });
});
