import { describe, expect, it } from 'vitest';
import { deidentifyFhir, hashReference } from './fhir';
import { ruleProblem } from './fhir-rules';
import { pseudonym } from './keyed';
import { phiValues, readable, syntheaRecords } from './test-support';

const key = new Uint8Array(32).fill(3);
const now = new Date('2026-01-01T00:00:00Z');

describe('FHIR de-identification rules', () => {
  it('keeps the shape of references while hashing their ids, so they still resolve and link', () => {
    const id = '129c6ac7-8d06-89de-ad63-0204a93e76c3';
    expect(hashReference(key, `Patient/${id}`)).toBe(`Patient/${pseudonym(key, id)}`);
    expect(hashReference(key, `https://fhir.example.org/r4/Patient/${id}/_history/2`)).toBe(`https://fhir.example.org/r4/Patient/${pseudonym(key, id)}`);
    expect(hashReference(key, `urn:uuid:${id}`)).toBe(`urn:uuid:${pseudonym(key, id)}`);
    expect(hashReference(key, 'Practitioner?identifier=http://hl7.org/fhir/sid/us-npi|9999974592')).toBe(`Practitioner?identifier=http://hl7.org/fhir/sid/us-npi|${pseudonym(key, '9999974592')}`);
    expect(hashReference(key, '#med1')).toBe('#med1');
  });

  it('refuses rule paths that do not parse or cannot be placed, and accepts the usual shapes', () => {
    expect(ruleProblem('Patient.name[')).toMatch(/does not parse/);
    expect(ruleProblem('Patient.birthDate')).toBeUndefined();
    expect(ruleProblem("Patient.extension.where(url = 'x')")).toBeUndefined();
    const bad = deidentifyFhir.bind(null, { resourceType: 'Patient', name: [{ given: ['A'] }] }, { key, preset: 'none', rules: [{ path: 'Patient.name.given.first()', action: 'redact' }] });
    expect(bad).toThrow(/cannot place/);
  });

  it('without the preset, the leak check does find what is left (so finding none means something)', () => {
    const record = syntheaRecords().find((r) => r.resourceType === 'Bundle')!;
    const values = phiValues(record);
    const text = readable(deidentifyFhir(record, { key, now, preset: 'none' }).value);
    expect([...values.keys()].filter((v) => text.includes(v.toLowerCase())).length).toBe(values.size);
    const safe = readable(deidentifyFhir(record, { key, now }).value);
    expect([...values.keys()].filter((v) => safe.includes(v.toLowerCase()))).toEqual([]);
  });

  it('leaves the input untouched and removes binary attachments it cannot scrub', () => {
    const doc = { resourceType: 'DocumentReference', status: 'current', content: [{ attachment: { contentType: 'image/png', data: 'iVBORw0KGgo=' } }, { attachment: { contentType: 'text/plain', data: Buffer.from('Call 555-810-7203').toString('base64') } }] };
    const before = JSON.stringify(doc);
    const out = deidentifyFhir(doc, { key }).value as typeof doc;
    expect(JSON.stringify(doc)).toBe(before);
    expect(out.content[0]!.attachment).toEqual({ contentType: 'image/png' });
    expect(Buffer.from(out.content[1]!.attachment.data, 'base64').toString()).toBe('Call [PHONE]');
  });
});
