import type { Bundle, Observation, Patient } from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutbound } from '@/server/outbound/outbound';
import { type FhirPeer, startFhirServer } from '../../../tests/support/fhir-server';
import { failure, runNode, SYNTHEA_PATIENTS, testContext, testServices } from '../../../tests/support/engine/node-context';
import { IDEMPOTENCY_TAG } from './fhir-write';
import { fhirWriteNode as fhirWrite } from './fhir-write.execute';
import { fhirValidateNode as fhirValidate } from './fhir-validate.execute';
import { fhirDeidentifyNode as fhirDeidentify } from './fhir-deidentify.execute';

let peer: FhirPeer;

beforeAll(async () => {
  peer = await startFhirServer({ auth: 'oauth2' });
});
afterAll(() => peer?.close());

/** The server's own outbound calls (its fetch for the OAuth2 token, its plain exchange for the writes), loopback allowed. */
const out = createOutbound({ allow: ['loopback'], timeoutMs: 10_000, maxBytes: 10 * 1024 * 1024 });

/** A node run of one execution: the same context on a retry, a new one per execution. */
function execution(id: string, testMode = false) {
  return testContext({
    executionId: id,
    nodeId: 'write',
    idempotencyKey: `${id}:write`,
    testMode,
    services: testServices({ fetch: out.fetch, request: out.request, connector: peer.connectorService() }),
  });
}

async function stored(query: string): Promise<number> {
  const bundle = await peer.repo.search({ resourceType: query.split('?')[0] as 'Patient', filters: [] });
  return (bundle.entry ?? []).filter((e) => JSON.stringify(e.resource).includes(query.split('?')[1]!)).length;
}

const patient = (family: string): Patient => ({ ...(SYNTHEA_PATIENTS[1] as Patient), id: undefined, name: [{ use: 'official', family, given: ['Devin82'] }] });

describe('fhir-write', () => {
  it('dropped with its default config, fails saying to set the connector', async () => {
    const e = await failure(runNode(fhirWrite, {}, { resource: patient('Default') }, execution('exec-default')));
    expect(e.code).toBe('CONNECTOR_REQUIRED');
  });

  it('creates a resource, and a retry of the same run writes nothing new', async () => {
    const run = execution('exec-create-1');
    const first = await runNode(fhirWrite, { connector: 'hospital-fhir' }, { resource: patient('RetryOnce') }, run);
    const created = first.outputs.result as Patient;
    expect(created.id).toBeTruthy();
    expect(first.outputs.location).toContain(`/Patient/${created.id}/_history/`);
    expect(created.meta?.tag).toContainEqual(expect.objectContaining({ system: IDEMPOTENCY_TAG }));
    const retry = await runNode(fhirWrite, { connector: 'hospital-fhir' }, { resource: patient('RetryOnce') }, run);
    expect((retry.outputs.result as Patient).id).toBe(created.id);
    expect(await stored('Patient?RetryOnce')).toBe(1);
    // another execution is another write
    await runNode(fhirWrite, { connector: 'hospital-fhir' }, { resource: patient('RetryOnce') }, execution('exec-create-2'));
    expect(await stored('Patient?RetryOnce')).toBe(2);
  });

  it('in one run, different resources (for-each items) are each written', async () => {
    const run = execution('exec-foreach');
    await runNode(fhirWrite, { connector: 'hospital-fhir' }, { resource: patient('ItemA') }, run);
    await runNode(fhirWrite, { connector: 'hospital-fhir' }, { resource: patient('ItemB') }, run);
    expect(await stored('Patient?ItemA')).toBe(1);
    expect(await stored('Patient?ItemB')).toBe(1);
  });

  it('a conditional create with a FHIRPath placeholder stores the patient once across executions', async () => {
    const config = {
      connector: 'hospital-fhir',
      operation: 'conditional-create',
      if_none_exist: "identifier=urn:mrn|{{identifier.where(system='urn:mrn').value}}",
    };
    const p = { ...patient('Conditional'), identifier: [{ system: 'urn:mrn', value: 'MRN 77/1' }] };
    const a = await runNode(fhirWrite, config, { resource: p }, execution('exec-cc-1'));
    const b = await runNode(fhirWrite, config, { resource: p }, execution('exec-cc-2'));
    expect((b.outputs.result as Patient).id).toBe((a.outputs.result as Patient).id);
    expect(await stored('Patient?Conditional')).toBe(1);
  });

  it('updates a resource by its id', async () => {
    const existing = await peer.repo.createResource<Patient>(patient('BeforeUpdate'));
    const r = await runNode(
      fhirWrite,
      { connector: 'hospital-fhir', operation: 'update' },
      { resource: { ...existing, name: [{ family: 'AfterUpdate' }] } },
      execution('exec-upd'),
    );
    expect((r.outputs.result as Patient).name?.[0]?.family).toBe('AfterUpdate');
    expect((await peer.repo.readResource<Patient>('Patient', existing.id)).name?.[0]?.family).toBe('AfterUpdate');
  });

  it('a retried transaction creates each entry once', async () => {
    const bundle: Bundle = {
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [
        { fullUrl: 'urn:uuid:3f1c2a9e-1111-4a2b-9c3d-000000000001', resource: patient('TxnPatient'), request: { method: 'POST', url: 'Patient' } },
        {
          fullUrl: 'urn:uuid:3f1c2a9e-1111-4a2b-9c3d-000000000002',
          resource: {
            resourceType: 'Observation',
            status: 'final',
            code: { text: 'TxnHeartRate' },
            subject: { reference: 'urn:uuid:3f1c2a9e-1111-4a2b-9c3d-000000000001' },
          } as Observation,
          request: { method: 'POST', url: 'Observation' },
        },
      ],
    };
    const run = execution('exec-txn');
    const first = await runNode(fhirWrite, { connector: 'hospital-fhir', operation: 'transaction' }, { resource: bundle }, run);
    expect((first.outputs.result as Bundle).type).toBe('transaction-response');
    await runNode(fhirWrite, { connector: 'hospital-fhir', operation: 'transaction' }, { resource: bundle }, run);
    expect(await stored('Patient?TxnPatient')).toBe(1);
    expect(await stored('Observation?TxnHeartRate')).toBe(1);
  });

  it('asks for a minimal answer when nothing reads the result, and then stores the same', async () => {
    const txn = (name: string): Bundle => ({
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [{ fullUrl: 'urn:uuid:3f1c2a9e-2222-4a2b-9c3d-000000000001', resource: patient(name), request: { method: 'POST', url: 'Patient' } }],
    });
    const read = await runNode(
      fhirWrite,
      { connector: 'hospital-fhir', operation: 'transaction' },
      { resource: txn('AnswerRead') },
      execution('exec-answer-read'),
    );
    expect(peer.seen.at(-1)).toMatchObject({ method: 'POST', prefer: 'return=representation' });
    expect((read.outputs.result as Bundle).entry![0]!.resource).toMatchObject({ resourceType: 'Patient', name: [{ family: 'AnswerRead' }] });

    const unread = { ...execution('exec-answer-unread'), outputRead: (port: string) => port !== 'result' };
    const minimal = await runNode(fhirWrite, { connector: 'hospital-fhir', operation: 'transaction' }, { resource: txn('AnswerUnread') }, unread);
    expect(peer.seen.at(-1)).toMatchObject({ method: 'POST', prefer: 'return=minimal' });
    const entry = (minimal.outputs.result as Bundle).entry![0]!;
    expect(entry.resource).toBeUndefined();
    expect(entry.response?.status).toMatch(/^201/);
    expect(await stored('Patient?AnswerUnread')).toBe(1);

    // a create answered with no body: the result says the status
    const created = await runNode(
      fhirWrite,
      { connector: 'hospital-fhir', operation: 'create' },
      { resource: patient('AnswerCreate') },
      { ...unread, executionId: 'exec-answer-create' },
    );
    expect(created.outputs.result).toEqual({ status: 201 });
    expect(created.outputs.location).toMatch(/Patient\/.+/);
  });

  it('a retry given the resource back from the database (keys in another order) writes nothing new', async () => {
    const run = execution('exec-reordered');
    const resource = patient('Reordered');
    await runNode(fhirWrite, { connector: 'hospital-fhir' }, { resource }, run);
    const reordered = Object.fromEntries(Object.entries(resource).reverse()) as Patient;
    reordered.name = [Object.fromEntries(Object.entries(resource.name![0]!).reverse())];
    expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(resource));
    await runNode(fhirWrite, { connector: 'hospital-fhir' }, { resource: reordered }, run);
    expect(await stored('Patient?Reordered')).toBe(1);
  });

  it('in test mode makes no connection and returns the validated payload it would send', async () => {
    const before = peer.requests;
    const r = await runNode(fhirWrite, { connector: 'hospital-fhir' }, { resource: patient('TestMode') }, execution('exec-test', true));
    expect(peer.requests).toBe(before);
    expect(r.simulated).toBe(true);
    const { request } = r.outputs.result as { simulated: true; request: { method: string; url: string; headers: Record<string, string>; body: Patient } };
    expect(request).toMatchObject({ method: 'POST', url: `${peer.baseUrl}/Patient` });
    expect(request.headers['If-None-Exist']).toMatch(new RegExp(`^_tag=${IDEMPOTENCY_TAG}\\|[0-9a-f]{32}$`));
    expect(request.body.name?.[0]?.family).toBe('TestMode');
    expect(JSON.stringify(r)).not.toMatch(/authorization|client_secret|Bearer/i);
    expect(await stored('Patient?TestMode')).toBe(0);
  });

  it('an invalid resource fails with its issues and sends nothing, in test mode too', async () => {
    for (const testMode of [false, true]) {
      const before = peer.requests;
      const e = await failure(
        runNode(
          fhirWrite,
          { connector: 'hospital-fhir' },
          { resource: { resourceType: 'Patient', birthDate: '21/05/1927' } },
          execution(`exec-bad-${testMode}`, testMode),
        ),
      );
      expect(e.code).toBe('FHIR_INVALID');
      expect(e.message).toContain('Patient.birthDate');
      expect(peer.requests).toBe(before);
    }
  });

  it('does not validate again a value fhir-validate passed and nothing changed since; one changed in place or copied is', async () => {
    const skipped = (logs: { message: string }[]) => logs.some((l) => l.message.includes('not validated again'));
    const passed = (await runNode(fhirValidate, {}, { resource: patient('Once') })).outputs.valid as Patient;
    const unchanged = execution('exec-once', true);
    await runNode(fhirWrite, { connector: 'hospital-fhir' }, { resource: passed }, unchanged);
    expect(skipped(unchanged.logs)).toBe(true);
    // the same object, changed in place after it passed: checked again, and refused
    passed.birthDate = '21/05/1927';
    const inPlace = execution('exec-in-place', true);
    const e = await failure(runNode(fhirWrite, { connector: 'hospital-fhir' }, { resource: passed }, inPlace));
    expect(e).toMatchObject({ code: 'FHIR_INVALID', message: expect.stringContaining('Patient.birthDate') });
    expect(skipped(inPlace.logs)).toBe(false);
    // a changed copy (what fhir-deidentify gives) is another value: checked
    const other = (await runNode(fhirValidate, {}, { resource: patient('Copied') })).outputs.valid as Patient;
    const copy = execution('exec-copy', true);
    await runNode(fhirWrite, { connector: 'hospital-fhir' }, { resource: { ...other, gender: 'female' } }, copy);
    expect(skipped(copy.logs)).toBe(false);
    // a value fhir-validate routed to invalid is not taken for checked
    const bad = { ...patient('Bad'), birthDate: 'yesterday' };
    await runNode(fhirValidate, {}, { resource: bad });
    expect((await failure(runNode(fhirWrite, { connector: 'hospital-fhir' }, { resource: bad }, execution('exec-bad-routed', true)))).code).toBe(
      'FHIR_INVALID',
    );
  });

  it('an update without id and a non-transaction bundle are refused before sending', async () => {
    const noId = await failure(runNode(fhirWrite, { connector: 'hospital-fhir', operation: 'update' }, { resource: patient('NoId') }, execution('exec-noid')));
    expect(noId).toMatchObject({ code: 'FHIR_INVALID', message: expect.stringContaining('id') });
    const collection = await failure(
      runNode(
        fhirWrite,
        { connector: 'hospital-fhir', operation: 'transaction' },
        { resource: { resourceType: 'Bundle', type: 'collection' } },
        execution('exec-coll'),
      ),
    );
    expect(collection.code).toBe('FHIR_INVALID');
  });

  it('a transaction whose entry the server refused fails with the OperationOutcome text', async () => {
    // a Patient POSTed to the Observation URL: the server refuses the entry (inside a 200 answer), so the transaction failed
    const e = await failure(
      runNode(
        fhirWrite,
        { connector: 'hospital-fhir', operation: 'transaction', validate: false },
        { resource: { resourceType: 'Bundle', type: 'transaction', entry: [{ resource: patient('Wrong'), request: { method: 'POST', url: 'Observation' } }] } },
        execution('exec-refused'),
      ),
    );
    expect(e.code).toBe('FHIR_ERROR');
    expect(e.message).toMatch(/entry 0: 4\d\d error invalid: /);
  });

  it('writes under the outbound policy: a FHIR server on a refused address fails the node in words and gets nothing', async () => {
    const strict = createOutbound({ allow: [], timeoutMs: 10_000, maxBytes: 10 * 1024 * 1024 });
    const before = await stored('Patient?Refused');
    const ctx = testContext({ services: testServices({ fetch: strict.fetch, request: strict.request, connector: peer.connectorService() }) });
    const e = await failure(runNode(fhirWrite, { connector: 'hospital-fhir' }, { resource: patient('Refused') }, ctx));
    expect(e.code).toBe('FHIR_UNREACHABLE');
    expect(e.message).toContain('a loopback address (this machine): outbound calls to it are refused');
    expect(await stored('Patient?Refused')).toBe(before);
  });

  it('a bundle fhir-validate passed and fhir-deidentify changed is checked again: a change that breaks it is refused, never sent', async () => {
    const bundle = (family: string): Bundle => ({
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [
        { fullUrl: 'urn:uuid:3f1c2a9e-2222-4a2b-9c3d-000000000001', resource: patient(family), request: { method: 'POST', url: 'Patient' } },
        {
          fullUrl: 'urn:uuid:3f1c2a9e-2222-4a2b-9c3d-000000000002',
          resource: {
            resourceType: 'Observation',
            status: 'final',
            code: { text: `${family}Pulse` },
            subject: { reference: 'urn:uuid:3f1c2a9e-2222-4a2b-9c3d-000000000001' },
          } as Observation,
          request: { method: 'POST', url: 'Observation' },
        },
      ],
    });
    const chain = async (family: string, rules: { path: string; action: string }[]) => {
      const valid = (await runNode(fhirValidate, { expect: 'bundle' }, { resource: bundle(family) })).outputs.valid;
      expect(valid).toBeDefined();
      const deid = await runNode(fhirDeidentify, { expect: 'bundle', rules }, { resource: valid });
      const ctx = execution(`exec-deid-${family}`);
      return { ctx, run: runNode(fhirWrite, { connector: 'hospital-fhir', operation: 'transaction' }, { resource: deid.outputs.resource }, ctx) };
    };
    // a rule that removes what R4 requires (Observation.status, 1..1): the changed bundle is invalid, and refused
    const broken = await chain('DeidBroken', [{ path: 'Observation.status', action: 'redact' }]);
    expect(await failure(broken.run)).toMatchObject({ code: 'FHIR_INVALID', message: expect.stringContaining('status') });
    expect(broken.ctx.logs.some((l) => l.message.includes('not validated again'))).toBe(false);
    expect(await stored('Observation?DeidBrokenPulse')).toBe(0);
    // the preset alone keeps it valid: checked, and written
    const kept = await chain('DeidKept', []);
    expect(((await kept.run).outputs.result as Bundle).type).toBe('transaction-response');
    expect(await stored('Observation?DeidKeptPulse')).toBe(1);
  });
});
