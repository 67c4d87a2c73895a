import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { orgWithKey } from '../support/accounts';
import { client, type Client } from '../support/client';
import { startFhirServer, type FhirPeer } from '../support/fhir-server';
import { startFlakyProxy } from '../support/flaky-proxy';

/*
 * Bulk reprocess after an outage (issue 30 §2):
 *   in (manual-trigger, field patient: fhir-resource) ──patient──▶ write (fhir-write, create, connector "Outage FHIR")
 * The FHIR server is behind a proxy that, while down, refuses half the writes and loses the answer of the other half
 * (the server stored them): the runs fail at `write`. Once it is back, one bulk request retries them all.
 */
const definition = {
  nodes: [
    { id: 'in', type: 'manual-trigger', config: { fields: { patient: 'fhir-resource' } } },
    { id: 'write', type: 'fhir-write', config: { connector: 'Outage FHIR', operation: 'create' } },
  ],
  connections: [{ source: 'in', source_port: 'patient', target: 'write', target_port: 'resource' }],
};
const patient = (mrn: string) => ({ resourceType: 'Patient', identifier: [{ system: 'urn:mrn', value: mrn }], name: [{ family: `Outage${mrn}` }] });

/** Production runs that fail in the outage. */
const RUNS = 200;

/** `n` calls of `f`, `width` at a time. */
async function inParallel<T>(n: number, width: number, f: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let i = next++; i < n; i = next++) out[i] = await f(i);
    }),
  );
  return out;
}

async function settled(api: Client, jobId: string, timeoutMs: number) {
  let job = (await api.get(`/api/executions/reprocess/${jobId}?limit=1000`)).body;
  for (const end = Date.now() + timeoutMs; job.status !== 'completed' && Date.now() < end;) {
    await new Promise((r) => setTimeout(r, 500));
    job = (await api.get(`/api/executions/reprocess/${jobId}?limit=1000`)).body;
  }
  return job;
}

describe.each(inject('targets'))('bulk reprocess of 200 failed runs after a FHIR outage on $name', (target) => {
  let api: Client;
  let other: Client;
  let fhir: FhirPeer;
  let proxy: Awaited<ReturnType<typeof startFlakyProxy>>;
  let pipelineId: string;
  let keptNot: string;
  let failed: { execution_id: string; error: { code: string } }[];
  const stamp = Date.now();
  let writtenOnce = 0;
  // medplum's search request type wants a full SearchRequest (filters, sort …); resourceType and count are all it needs here
  const storedMrns = async () =>
    (await fhir.repo.searchResources({ resourceType: 'Patient', count: 1000 } as never))
      .map((p) => (p as { identifier: { value: string }[] }).identifier[0]!.value)
      .sort();

  beforeAll(async () => {
    api = client(target.url, await orgWithKey(target.url, `reprocess-${target.name}-${stamp}@example.org`));
    other = client(target.url, await orgWithKey(target.url, `reprocess-other-${target.name}-${stamp}@example.org`));
    fhir = await startFhirServer({ auth: 'none' });
    proxy = await startFlakyProxy(fhir.baseUrl);
    expect((await api.post('/api/connectors', { name: 'Outage FHIR', type: 'fhir', endpoint: proxy.url })).status).toBe(201);
    pipelineId = (await api.post('/api/pipelines', { name: 'Patients to FHIR', definition })).body.id;
    expect((await api.post(`/api/pipelines/${pipelineId}/deploy`)).status).toBe(200);
    // a pipeline that keeps no payloads: its failed runs cannot be retried from the write
    keptNot = (await api.post('/api/pipelines', { name: 'Metadata only', definition })).body.id;
    expect((await api.put(`/api/pipelines/${keptNot}`, { data_settings: { policy: 'metadata' } })).status).toBe(200);
    expect((await api.post(`/api/pipelines/${keptNot}/deploy`)).status).toBe(200);

    // before the outage: two runs that complete (never reprocessed)
    for (const mrn of ['ok-1', 'ok-2']) {
      expect((await api.post('/api/execute', { pipeline_id: pipelineId, inputs: { patient: patient(mrn) } })).body.status).toBe('completed');
    }
    proxy.down = true;
    failed = await inParallel(RUNS, 2, async (i) => {
      const res = await api.post('/api/execute', { pipeline_id: pipelineId, inputs: { patient: patient(`mrn-${i}`) } });
      expect(res.body).toMatchObject({ status: 'failed', error: { node_id: 'write' } });
      return res.body;
    });
    for (const mrn of ['meta-1', 'meta-2']) {
      expect((await api.post('/api/execute', { pipeline_id: keptNot, inputs: { patient: patient(mrn) } })).body.status).toBe('failed');
    }
  }, 600_000);
  afterAll(async () => {
    await proxy?.close();
    await fhir?.close();
  });

  it('counts what a filter selects without starting anything, and refuses a bad filter changing nothing', async () => {
    const all = await api.post('/api/executions/reprocess', { dry_run: true });
    expect(all.body).toEqual({ job_id: null, matched: RUNS + 2, not_kept: 2, dry_run: true });
    const one = await api.post('/api/executions/reprocess', { pipeline_id: pipelineId, dry_run: true });
    expect(one.body).toMatchObject({ matched: RUNS, not_kept: 0 });
    const codes = [...new Set(failed.map((f) => f.error.code))];
    expect((await api.post('/api/executions/reprocess', { error_code: codes, pipeline_id: pipelineId, dry_run: true })).body.matched).toBe(RUNS);
    expect((await api.post('/api/executions/reprocess', { error_code: ['TIMEOUT'], dry_run: true })).body.matched).toBe(0);
    expect((await api.post('/api/executions/reprocess', { since: new Date(Date.now() + 60_000).toISOString(), dry_run: true })).body.matched).toBe(0);
    expect((await api.post('/api/executions/reprocess', { status: 'cancelled', dry_run: true })).body.matched).toBe(0);

    const before = (await api.get(`/api/executions?limit=1`)).body.total_count;
    const reversed = await api.post('/api/executions/reprocess', { since: '2026-02-01T00:00:00Z', until: '2026-01-01T00:00:00Z' });
    expect(reversed.status).toBe(400);
    expect(reversed.body.error).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    expect(reversed.body.error.message).toContain('must be before');
    for (const bad of [{ status: 'completed' }, { error_code: ['not a code'] }, { since: 'yesterday' }]) {
      const res = await api.post('/api/executions/reprocess', bad);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect((await api.get(`/api/executions?limit=1`)).body.total_count).toBe(before);
    expect((await api.post('/api/executions/reprocess', { dry_run: true })).body.matched).toBe(RUNS + 2);
  });

  it('is impossible across organizations', async () => {
    const theirs = await other.post('/api/executions/reprocess', { pipeline_id: pipelineId });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.code).toBe('PIPELINE_NOT_FOUND');
    const everything = await other.post('/api/executions/reprocess', {});
    expect(everything.status).toBe(202);
    expect(everything.body.matched).toBe(0);
    expect((await api.post('/api/executions/reprocess', { dry_run: true })).body.matched).toBe(RUNS + 2);
    expect((await api.get(`/api/executions/reprocess/${everything.body.job_id}`)).status).toBe(404);
  });

  it('retries every failed run once the server is back: all complete, each linked to its original, no write doubled', async () => {
    // the outage wrote some patients whose answer was lost: a retry that is not idempotent would write them again
    expect(proxy.lost).toBeGreaterThan(0);
    proxy.down = false;
    const started = await api.post('/api/executions/reprocess', {});
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ matched: RUNS + 2, not_kept: 2, dry_run: false });
    const job = await settled(api, started.body.job_id, 480_000);
    expect(job).toMatchObject({ status: 'completed', total: RUNS + 2, queued: 0, done: RUNS, failed: 0, skipped: 2 });
    const skipped = job.runs.filter((r: { state: string }) => r.state === 'skipped');
    expect(skipped.map((r: { error_code: string }) => r.error_code)).toEqual(['PAYLOADS_NOT_KEPT', 'PAYLOADS_NOT_KEPT']);

    const byOriginal = new Map<string, string>(job.runs.map((r: { execution_id: string; retry_id: string }) => [r.execution_id, r.retry_id]));
    for (const original of failed) expect(byOriginal.get(original.execution_id)).toEqual(expect.any(String));
    for (const original of failed.slice(0, 10)) {
      const retry = await api.get(`/api/executions/${byOriginal.get(original.execution_id)}`);
      expect(retry.body).toMatchObject({ status: 'completed', trigger: 'retry', retry_of: original.execution_id });
    }

    // every patient once: those written before the outage, and each failed run's (some stored during the outage,
    // their answer lost, found again by the retry's key); the metadata-only pipeline's lost answers stay as they were
    const mrns = await storedMrns();
    expect(new Set(mrns).size).toBe(mrns.length);
    const expected = ['ok-1', 'ok-2', ...failed.map((_, i) => `mrn-${i}`)].sort();
    expect(mrns.filter((m) => !m.startsWith('meta-'))).toEqual(expected);
    writtenOnce = mrns.length;

    const audit = await api.get(`/api/audit-events?action=execution.reprocess&object_id=${started.body.job_id}`);
    expect(audit.body.events).toHaveLength(1);
    expect(audit.body.events[0].detail).toMatchObject({ matched: RUNS + 2, pipeline_id: null, status: 'failed' });
  }, 600_000);

  it('a second bulk request reprocesses nothing already reprocessed', async () => {
    const again = await api.post('/api/executions/reprocess', { pipeline_id: pipelineId });
    expect(again.status).toBe(202);
    expect(again.body.matched).toBe(0);
    const job = await settled(api, again.body.job_id, 30_000);
    expect(job).toMatchObject({ status: 'completed', total: 0, done: 0 });
    expect(await storedMrns()).toHaveLength(writtenOnce);
  });
});
