import { describe, expect, it } from 'vitest';
import type { Bundle, Condition, Patient, Resource } from '@medplum/fhirtypes';
import { syntheaRecords } from '../../../tests/support/clinical/deid';
import { r4Errors } from '../../../tests/support/clinical/x12';
import { failure, runNode, testContext, testServices } from '../../../tests/support/engine/node-context';
import { fhirDeidentifyNode as node } from './fhir-deidentify.execute';

const records = syntheaRecords();
// the first patient's record: Sumiko254 Medhurst46, born 1927-05-21, died 1989, with notes and encounters
const bundle = records.find((r) => r.resourceType === 'Bundle' && JSON.stringify(r).includes('Medhurst46')) as unknown as Bundle;
const entries = (b: Bundle) => b.entry!.map((e) => e.resource!) as Resource[];
const patientIn = entries(bundle).find((r) => r.resourceType === 'Patient') as Patient;
const conditionIn = entries(bundle).find((r) => r.resourceType === 'Condition') as Condition;
const DAY = 86_400_000;

describe('fhir-deidentify', () => {
  it('works with its default config on a patient bundle: no name, address line, phone or exact birth date left; still valid R4', async () => {
    const r = await runNode(node, {}, { resource: bundle });
    const out = r.outputs.resource as Bundle;
    const text = JSON.stringify(out);
    for (const v of ['Medhurst46', 'Sumiko254', '633 Abernathy Landing', 'Emporia', '555-810-7203', '1927-05-21', '999-94-5397', patientIn.id!])
      expect(text).not.toContain(v);
    const patient = entries(out).find((x) => x.resourceType === 'Patient') as Patient;
    expect(patient.birthDate).toBe('1927');
    expect(patient.name).toBeUndefined();
    expect(patient.address).toEqual([{ state: 'KS', postalCode: '668', country: 'US' }]);
    expect(patient.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    // references still resolve inside the bundle
    const conditions = entries(out).filter((x) => x.resourceType === 'Condition') as Condition[];
    expect(new Set(conditions.map((c) => c.subject.reference))).toEqual(new Set([`Patient/${patient.id}`]));
    expect(out.entry!.map((e) => e.fullUrl)).toContain(`urn:uuid:${patient.id}`);
    expect(entries(out).flatMap((x) => r4Errors(x).map((e) => `${x.resourceType} ${e.path}: ${e.message}`))).toEqual([]);
    expect(patient.text!.div).toMatch(/^<div xmlns="http:\/\/www.w3.org\/1999\/xhtml">/);
  });

  it('scrubs the clinical notes of the names the bundle holds, keeping the note readable', async () => {
    const r = await runNode(node, {}, { resource: bundle });
    const doc = entries(r.outputs.resource as Bundle).find((x) => x.resourceType === 'DocumentReference') as { content: { attachment: { data: string } }[] };
    const note = Buffer.from(doc.content[0]!.attachment.data, 'base64').toString('utf8');
    expect(note).toContain('[NAME] [NAME]');
    expect(note).toContain('# Chief Complaint');
    expect(note).not.toMatch(/Sumiko254|Larue605/);
  });

  it('gives the same pseudonym and the same date shift to one patient across two messages', async () => {
    const ctx = testContext();
    const p = (await runNode(node, {}, { resource: patientIn }, ctx)).outputs.resource as Patient;
    const c = (await runNode(node, {}, { resource: conditionIn }, ctx)).outputs.resource as Condition;
    expect(c.subject.reference).toBe(`Patient/${p.id}`);
    const shift = (a: string, b: string) => Math.round((Date.parse(a) - Date.parse(b)) / DAY);
    const patientShift = shift(p.deceasedDateTime!, patientIn.deceasedDateTime!);
    expect(patientShift).not.toBe(0);
    expect(Math.abs(patientShift)).toBeLessThanOrEqual(365);
    expect(shift(c.onsetDateTime!, conditionIn.onsetDateTime!)).toBe(patientShift);
  });

  it('gives different pseudonyms and shifts under another organization key', async () => {
    const other = testContext({ services: testServices({ orgKey: async () => new Uint8Array(32).fill(42) }) });
    const a = (await runNode(node, {}, { resource: patientIn })).outputs.resource as Patient;
    const b = (await runNode(node, {}, { resource: patientIn }, other)).outputs.resource as Patient;
    expect(a.id).not.toBe(b.id);
    expect(a.identifier![0]!.value).not.toBe(b.identifier![0]!.value);
    expect(a.deceasedDateTime).not.toBe(b.deceasedDateTime);
  });

  it('lets user rules come first: keep exempts a field, redact removes one more', async () => {
    const config = {
      rules: [
        { path: 'Patient.address.city', action: 'keep' },
        { path: 'Patient.maritalStatus', action: 'redact' },
      ],
      keep_birth_year: false,
    };
    const p = (await runNode(node, config, { resource: patientIn })).outputs.resource as Patient;
    expect(p.address![0]!.city).toBe('Emporia');
    expect(p.maritalStatus).toBeUndefined();
    expect(p.birthDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(p.birthDate).not.toBe('1927-05-21');
    expect(node.config.safeParse({ rules: [{ path: 'Patient.name[', action: 'redact' }] }).success).toBe(false);
  });

  it('caps birth dates of people older than 89 at the 90-year boundary, or removes them', async () => {
    const old = { ...patientIn, deceasedDateTime: undefined, birthDate: '1920-03-04' };
    const year = String(new Date().getUTCFullYear() - 90);
    expect(((await runNode(node, {}, { resource: old })).outputs.resource as Patient).birthDate).toBe(year);
    expect(((await runNode(node, { over_89: 'remove' }, { resource: old })).outputs.resource as Patient).birthDate).toBeUndefined();
  });

  it('does what its documentation example says', async () => {
    const input = {
      resourceType: 'Patient',
      id: patientIn.id,
      name: [{ family: 'Medhurst46' }],
      birthDate: '1927-05-21',
      deceasedDateTime: '1989-05-09T20:35:22-04:00',
      address: [{ line: ['633 Abernathy Landing'], city: 'Emporia', state: 'KS', postalCode: '66801' }],
    };
    const out = (await runNode(node, {}, { resource: input })).outputs.resource as Patient;
    expect(Object.keys(out).sort()).toEqual(['address', 'birthDate', 'deceasedDateTime', 'id', 'resourceType']);
    expect(out.birthDate).toBe('1927');
    expect(out.deceasedDateTime).toMatch(/^\d{4}-\d{2}-\d{2}T20:35:22-04:00$/);
    expect(out.address).toEqual([{ state: 'KS', postalCode: '668' }]);
  });

  it('routes what is not a FHIR resource to invalid, or fails when told to', async () => {
    const r = await runNode(node, {}, { resource: { hello: 'world' } });
    expect(r.outputs).toEqual({ invalid: { value: { hello: 'world' }, error: 'Not a FHIR resource: no resourceType.' } });
    const e = await failure(runNode(node, { expect: 'bundle', on_invalid: 'fail' }, { resource: patientIn }));
    expect(e).toMatchObject({ code: 'FHIR_INVALID', message: 'Expected a Bundle, got a Patient.' });
  });
});
