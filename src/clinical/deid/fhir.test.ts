import { describe, expect, it } from 'vitest';
import { formatIssue, validateFhir } from '@/clinical/fhir/validate';
import { parseMessage } from '@/clinical/hl7v2';
import { hl7Samples } from '../../../tests/support/clinical/hl7v2';
import { convertMessage, SUPPORTED_TYPES } from '@/clinical/hl7v2-fhir';
import { deidentifyFhir, hashReference } from './fhir';
import { ruleProblem } from './fhir-rules';
import { pseudonym } from './keyed';
import { phiValues, readable, syntheaRecords } from '../../../tests/support/clinical/deid';

const key = new Uint8Array(32).fill(3);
const now = new Date('2026-01-01T00:00:00Z');

describe('FHIR de-identification rules', () => {
  it('keeps the shape of references while hashing their ids, so they still resolve and link', () => {
    const id = '129c6ac7-8d06-89de-ad63-0204a93e76c3';
    expect(hashReference(key, `Patient/${id}`)).toBe(`Patient/${pseudonym(key, id)}`);
    expect(hashReference(key, `https://fhir.example.org/r4/Patient/${id}/_history/2`)).toBe(`https://fhir.example.org/r4/Patient/${pseudonym(key, id)}`);
    expect(hashReference(key, `urn:uuid:${id}`)).toBe(`urn:uuid:${pseudonym(key, id)}`);
    expect(hashReference(key, 'Practitioner?identifier=http://hl7.org/fhir/sid/us-npi|9999974592')).toBe(
      `Practitioner?identifier=http://hl7.org/fhir/sid/us-npi|${pseudonym(key, '9999974592')}`,
    );
    expect(hashReference(key, '#med1')).toBe('#med1');
  });

  it('refuses rule paths that do not parse or cannot be placed, and accepts the usual shapes', () => {
    expect(ruleProblem('Patient.name[')).toMatch(/does not parse/);
    expect(ruleProblem('Patient.birthDate')).toBeUndefined();
    expect(ruleProblem("Patient.extension.where(url = 'x')")).toBeUndefined();
    const bad = deidentifyFhir.bind(
      null,
      { resourceType: 'Patient', name: [{ given: ['A'] }] },
      { key, preset: 'none', rules: [{ path: 'Patient.name.given.first()', action: 'redact' }] },
    );
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

  it('keeps an Organization known by its name alone valid FHIR: the name removed is marked withheld (org-1)', () => {
    const masked = { extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason', valueCode: 'masked' }] };
    const byName = { resourceType: 'Organization', id: 'o1', name: 'Acme Employer Inc' };
    const out = deidentifyFhir(byName, { key, now }).value as Record<string, unknown>;
    expect(out.name).toBeUndefined();
    expect(out._name).toEqual(masked);
    expect(validateFhir(out)).toEqual([]);
    // without the mark, the same output breaks org-1: what a FHIR server would refuse
    expect(validateFhir({ ...out, _name: undefined }).map((i) => i.message)).toEqual([expect.stringContaining('org-1')]);
    const withId = deidentifyFhir({ ...byName, identifier: [{ system: 'urn:ein', value: '12-3456789' }] }, { key, now }).value as Record<string, unknown>;
    expect(withId._name).toBeUndefined();
    expect(validateFhir(withId)).toEqual([]);
  });

  it("keeps a Patient's contact known by its name alone valid FHIR: the name removed is marked withheld (pat-1)", () => {
    const masked = { extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason', valueCode: 'masked' }] };
    const contact = { relationship: [{ text: 'mother' }], name: { family: 'Doe', given: ['Jane'] }, telecom: [{ system: 'phone', value: '555-0100' }] };
    const patient = { resourceType: 'Patient', id: 'p1', contact: [contact, { ...contact, organization: { reference: 'Organization/o1' } }] };
    for (const rules of [[], [{ path: 'Patient.gender', action: 'keep' as const }]]) {
      // the compiled preset, and the rules interpreted one after the other
      const out = deidentifyFhir(patient, { key, now, rules }).value as { contact: Record<string, unknown>[] };
      expect(out.contact[0]).toEqual({ relationship: [{ text: 'mother' }], name: masked });
      expect(out.contact[1]!.name).toBeUndefined(); // its organization is detail enough
      expect(validateFhir(out)).toEqual([]);
      // nothing of the contacts' names or phone is anywhere in the output
      const text = JSON.stringify(out).toLowerCase();
      expect(['doe', 'jane', '555-0100', '5550100'].filter((v) => text.includes(v))).toEqual([]);
      // without the mark, the same output breaks pat-1: what a FHIR server would refuse
      const unmarked = { ...out, contact: [{ relationship: [{ text: 'mother' }] }] };
      expect(validateFhir(unmarked).map((i) => i.message)).toEqual([expect.stringContaining('pat-1')]);
    }
  });

  it('gives valid FHIR for every sample message converted (what a feed writes after de-identifying)', () => {
    const messages = hl7Samples()
      .map((s) => parseMessage(s.text))
      .filter((m) => (SUPPORTED_TYPES as readonly string[]).includes(m.message_type.toUpperCase()));
    expect(messages.length).toBeGreaterThan(60);
    for (const m of messages) {
      const out = deidentifyFhir(convertMessage(m).bundle, { key, now }).value;
      expect(validateFhir(out).map(formatIssue), `${m.message_type}^${m.trigger_event} ${m.control_id}`).toEqual([]);
    }
  });

  it("hashes every string of a person's resource, by the R4 model: a Coverage's member, dependent and group numbers", () => {
    const coverage = {
      resourceType: 'Coverage',
      id: 'c1',
      status: 'active',
      subscriberId: 'HMO-12345',
      dependent: '02',
      network: 'Blue Network',
      beneficiary: { reference: 'Patient/p1' },
      payor: [{ reference: 'Organization/o1' }],
      class: [
        { type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/coverage-class', code: 'group' }] }, value: 'Grp-12345', name: 'Acme Employees' },
      ],
    };
    const out = deidentifyFhir(coverage, { key, now }).value as typeof coverage;
    expect(out.subscriberId).toBe(pseudonym(key, 'HMO-12345'));
    expect([out.dependent, out.network, out.class[0]!.value, out.class[0]!.name]).toEqual(
      ['02', 'Blue Network', 'Grp-12345', 'Acme Employees'].map((v) => pseudonym(key, v)),
    );
    // codes stay codes
    expect(out.status).toBe('active');
    expect(out.class[0]!.type).toEqual(coverage.class[0]!.type);
    expect(validateFhir(out)).toEqual([]);
  });

  it('keeps a state or country only when it reads as one (a ZIP code put in the country goes)', () => {
    const patient = {
      resourceType: 'Patient',
      address: [
        { state: 'MI', country: '999990000' },
        { state: 'New York', country: 'USA' },
      ],
    };
    const out = deidentifyFhir(patient, { key, now }).value as typeof patient;
    expect(out.address).toEqual([{ state: 'MI' }, { state: 'New York', country: 'USA' }]);
  });

  it('leaves the input untouched and removes binary attachments it cannot scrub', () => {
    const doc = {
      resourceType: 'DocumentReference',
      status: 'current',
      content: [
        { attachment: { contentType: 'image/png', data: 'iVBORw0KGgo=' } },
        { attachment: { contentType: 'text/plain', data: Buffer.from('Call 555-810-7203').toString('base64') } },
      ],
    };
    const before = JSON.stringify(doc);
    const out = deidentifyFhir(doc, { key }).value as typeof doc;
    expect(JSON.stringify(doc)).toBe(before);
    expect(out.content[0]!.attachment).toEqual({ contentType: 'image/png' });
    expect(Buffer.from(out.content[1]!.attachment.data, 'base64').toString()).toBe('Call [PHONE]');
  });
});
