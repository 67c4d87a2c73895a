import type { Bundle, Patient } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { knownProfile, profileFromJson } from './profiles';
import { expectedBundle, expectedBundleNames, synthea, syntheaTypes } from '../../../tests/support/clinical/fhir';
import { US_CORE_PROFILE_URLS } from './us-core';
import { formatIssue, validateFhir } from './validate';

const US_CORE_PATIENT = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient';
const patient = () => structuredClone(synthea('Patient')[0]!) as Patient;
const at = (issues: ReturnType<typeof validateFhir>) => issues.map((i) => `${i.path}: ${i.message}`);

describe('validateFhir on the samples', () => {
  it('finds every Synthea resource valid R4 (7,160 resources of 13 types)', () => {
    let n = 0;
    for (const type of syntheaTypes()) {
      for (const r of synthea(type)) {
        n++;
        expect(validateFhir(r).map(formatIssue), `${type}/${r.id}`).toEqual([]);
      }
    }
    expect(n).toBe(7160);
  }, 60_000);

  it("finds the defects Microsoft's converter left in 5 of the 64 expected bundles, naming the entry", () => {
    const invalid = expectedBundleNames().filter((name) => validateFhir(expectedBundle(name)).length > 0);
    expect(invalid).toEqual(['ADT01-23', 'ADT04-23', 'LAB-ORU-1', 'OUL-R24-01', 'VXU-V04-01']);
    expect(at(validateFhir(expectedBundle('LAB-ORU-1')))).toEqual(['Bundle.entry[1].resource.agent[0].who: Missing required property']);
    const adt = at(validateFhir(expectedBundle('ADT04-23')));
    expect(adt).toContain('Bundle.entry[4].resource.telecom[0].use: "HOME" is not in the required value set contact-point-use (home, work, temp, old, mobile)');
    expect(adt).toContain(
      'Bundle.entry[6].resource.name[0].use: "CURRENT" is not in the required value set name-use (usual, official, temp, nickname, anonymous, old, maiden)',
    );
    expect(at(validateFhir(expectedBundle('VXU-V04-01')))[0]).toBe(
      'Bundle: Constraint bdl-3 not met: entry.request mandatory for batch/transaction/history, otherwise prohibited',
    );
  });
});

describe('validateFhir on broken resources', () => {
  it('names the path of a bad date, an unknown element, a non-list and a code outside a required value set', () => {
    const p = { ...patient(), birthDate: '21/05/1927', gender: 'F', nickname: 'Sue', name: [{ family: 'Medhurst46', given: 'Sumiko254' }] };
    const issues = validateFhir(p);
    expect(issues.every((i) => i.severity === 'error')).toBe(true);
    expect(at(issues).sort()).toEqual([
      'Patient.birthDate: Invalid date format',
      'Patient.gender: "F" is not in the required value set administrative-gender (male, female, other, unknown)',
      'Patient.name.given: Expected array of values for property',
      'Patient.nickname: Invalid additional property "nickname"',
    ]);
  });

  it('checks the invariants of a resource (pat-1: a contact needs details)', () => {
    const p = { ...patient(), contact: [{ gender: 'female' }] };
    expect(at(validateFhir(p))).toEqual([
      "Patient.contact[0]: Constraint pat-1 not met: SHALL at least contain a contact's details or a reference to an organization",
    ]);
  });

  it('inside a bundle, names the entry: Bundle.entry[2].resource.code', () => {
    const conditions = synthea('Condition').slice(0, 3);
    delete (conditions[2] as { subject?: unknown }).subject;
    const bundle: Bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: conditions.map((resource) => ({ fullUrl: `urn:uuid:${resource.id}`, resource })),
    };
    expect(at(validateFhir(bundle))).toEqual(['Bundle.entry[2].resource.subject: Missing required property']);
  });

  it('checks the resource-level invariants of resources inside a bundle and of contained ones, as of a resource alone', () => {
    const request = {
      resourceType: 'ServiceRequest',
      status: 'active',
      intent: 'order',
      subject: { reference: 'Patient/1' },
      orderDetail: [{ text: 'fasting' }],
    };
    const prr1 = 'Constraint prr-1 not met: orderDetail SHALL only be present if code is present';
    expect(at(validateFhir(request))).toEqual([`ServiceRequest: ${prr1}`]);
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        { fullUrl: 'urn:uuid:a', resource: patient() },
        { fullUrl: 'urn:uuid:b', resource: request },
      ],
    };
    expect(at(validateFhir(bundle))).toEqual([`Bundle.entry[1].resource: ${prr1}`]);
    expect(validateFhir({ ...bundle, entry: [bundle.entry[0]!, { ...bundle.entry[1]!, resource: { ...request, code: { text: 'lipid panel' } } }] })).toEqual(
      [],
    );
    const contained = { ...patient(), contained: [{ ...request, id: 'r1' }], generalPractitioner: [{ reference: '#r1' }] };
    expect(at(validateFhir(contained))).toContain(`Patient.contained[0]: ${prr1}`);
  });

  it('checks org-1, which @medplum/core skips: an Organization needs a name or an identifier, alone or in a bundle', () => {
    const org1 = 'Constraint org-1 not met: The organization SHALL at least have a name or an identifier, and possibly more than one';
    expect(at(validateFhir({ resourceType: 'Organization', active: true }))).toEqual([`Organization: ${org1}`]);
    expect(validateFhir({ resourceType: 'Organization', active: true, name: 'Good Health Clinic' })).toEqual([]);
    const bundle = { resourceType: 'Bundle', type: 'collection', entry: [{ fullUrl: 'urn:uuid:o', resource: { resourceType: 'Organization', active: true } }] };
    expect(at(validateFhir(bundle))).toEqual([`Bundle.entry[0].resource: ${org1}`]);
  });

  it('can leave required codes unchecked', () => {
    expect(validateFhir({ ...patient(), gender: 'F' }, { bindings: false })).toEqual([]);
  });

  it('says plainly when the value is not a resource', () => {
    expect(at(validateFhir([patient()]))).toEqual([': Not a FHIR resource: the value is an array, not an object']);
    expect(at(validateFhir({ id: 'x' }))).toEqual(['resourceType: Not a FHIR resource: it has no resourceType']);
    expect(validateFhir({ resourceType: 'Patiant' })[0]!.severity).toBe('error');
  });
});

describe('profiles', () => {
  it('ships the US Core profiles it names', () => {
    for (const url of US_CORE_PROFILE_URLS) expect(knownProfile(url)?.url, url).toBe(url);
    expect(knownProfile('http://hl7.org/fhir/us/core/StructureDefinition/us-core-condition')).toBeUndefined();
  });

  it('passes the 13 Synthea Patients against US Core Patient and fails one without identifier or name', () => {
    const profile = knownProfile(US_CORE_PATIENT)!;
    for (const p of synthea('Patient')) expect(validateFhir(p, { profile }), p.id).toEqual([]);
    const bare = { ...patient(), identifier: undefined, name: undefined };
    delete bare.identifier;
    delete bare.name;
    expect(validateFhir(bare)).toEqual([]);
    expect(at(validateFhir(bare, { profile })).sort()).toEqual([
      'Patient.identifier: Missing required property',
      'Patient.name: Missing required property',
      'Patient: Constraint us-core-6 not met: Either Patient.name.given and/or Patient.name.family SHALL be present or a Data Absent Reason Extension SHALL be present.',
    ]);
  });

  it('applies a profile to the matching entries of a bundle, and refuses a resource of another type', () => {
    const profile = knownProfile(US_CORE_PATIENT)!;
    const issues = validateFhir(expectedBundle('ADT-A01-01'), { profile });
    expect(at(issues)).toEqual(['Bundle.entry[8].resource.identifier[8].system: Missing required property']);
    expect(at(validateFhir(synthea('Condition')[0], { profile }))).toEqual([
      'Condition: A Condition cannot conform to USCorePatientProfile, a profile of Patient',
    ]);
  });

  it('takes a profile pasted as StructureDefinition JSON, and says why a differential-only one cannot serve', () => {
    const pasted = profileFromJson(JSON.parse(JSON.stringify(knownProfile('http://hl7.org/fhir/us/core/StructureDefinition/us-core-medicationrequest'))));
    let checked = 0;
    for (const m of synthea('MedicationRequest').slice(0, 200)) {
      expect(validateFhir(m, { profile: pasted })).toEqual([]);
      checked++;
    }
    expect(checked).toBe(200);
    const noRequester = { ...synthea('MedicationRequest')[0]!, requester: undefined };
    delete noRequester.requester;
    expect(at(validateFhir(noRequester, { profile: pasted }))).toContain('MedicationRequest.requester: Missing required property');
    const { snapshot: _snapshot, ...differentialOnly } = pasted;
    expect(() => profileFromJson(differentialOnly)).toThrow('Not a usable profile: the StructureDefinition has no snapshot');
  });
});
