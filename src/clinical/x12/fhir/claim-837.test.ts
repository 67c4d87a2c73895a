import type { Bundle, Claim, Coverage, Organization, Patient, Practitioner, Resource } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { parseX12, X12SetError, type X12Interchange } from '../index';
import { r4Errors, x12Sample, x12Samples } from '../../../../tests/support/clinical/x12';
import { claimsFrom837 } from './claim-837';

function interchange(text: string): X12Interchange {
  const r = parseX12(text);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.interchange;
}

function resources<T extends Resource>(bundle: Bundle, type: T['resourceType']): T[] {
  return (bundle.entry ?? []).map((e) => e.resource!).filter((r): r is T => r.resourceType === type);
}

/** The resource a `urn:uuid:` reference points to, inside the bundle. */
function resolve<T extends Resource>(bundle: Bundle, reference: string | undefined): T {
  const entry = bundle.entry?.find((e) => e.fullUrl === reference);
  if (!entry) throw new Error(`${reference} does not resolve in the bundle`);
  return entry.resource as T;
}

const samples837 = x12Samples('837');

describe('837 → FHIR Claim bundle, on every 837 sample', () => {
  it.each(samples837.map((s) => [s.name, s.text] as const))('%s: one valid Claim per CLM, every resource valid R4, references resolve', (_name, text) => {
    const { bundle } = claimsFrom837(interchange(text));
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'collection' });
    const claims = resources<Claim>(bundle, 'Claim');
    expect(claims).toHaveLength(text.split('~').filter((s) => s.trim().startsWith('CLM*')).length);
    for (const entry of bundle.entry!) expect(r4Errors(entry.resource!), `${entry.resource!.resourceType}`).toEqual([]);
    for (const claim of claims) {
      expect(resolve<Patient>(bundle, claim.patient.reference).resourceType).toBe('Patient');
      expect(['Organization', 'Practitioner']).toContain(resolve(bundle, claim.provider.reference).resourceType);
      for (const ins of claim.insurance) expect(resolve<Coverage>(bundle, ins.coverage.reference).resourceType).toBe('Coverage');
      for (const member of claim.careTeam ?? []) resolve(bundle, member.provider.reference);
      // the claim total is CLM02
      const clm02 = text
        .split('~')
        .find((s) => s.includes(`CLM*${claim.identifier![0]!.value}*`))!
        .split('*')[2];
      expect(claim.total?.value).toBe(Number(clm02));
    }
  });

  it('refuses an interchange with no 837, naming what it holds', () => {
    expect(() => claimsFrom837(interchange(x12Sample('835_005010X221A1/managed-care.835')))).toThrow(X12SetError);
    expect(() => claimsFrom837(interchange(x12Sample('835_005010X221A1/managed-care.835')))).toThrow(
      'The interchange holds no 837 transaction set (it has 835)',
    );
  });
});

describe('837P: a dependent patient (demo.example1)', () => {
  const { bundle, warnings } = claimsFrom837(interchange(x12Sample('837_005010X222A2/demo.example1.837')));
  const [claim] = resources<Claim>(bundle, 'Claim');

  it('names the patient, the subscriber and their relationship, the payer', () => {
    expect(warnings).toEqual([]);
    const patient = resolve<Patient>(bundle, claim!.patient.reference);
    expect(patient).toMatchObject({
      name: [{ family: 'SMITH', given: ['TED'] }],
      gender: 'male',
      birthDate: '1973-05-01',
      address: [{ line: ['236 N MAIN ST'], city: 'MIAMI', state: 'FL', postalCode: '33413' }],
    });
    const coverage = resolve<Coverage>(bundle, claim!.insurance[0]!.coverage.reference);
    expect(coverage.relationship?.coding?.[0]?.code).toBe('child');
    expect(coverage.subscriberId).toBe('JS00111223333');
    expect(resolve<Patient>(bundle, coverage.subscriber?.reference).name).toEqual([{ family: 'SMITH', given: ['JANE'] }]);
    expect(resolve<Organization>(bundle, coverage.payor[0]!.reference).name).toBe('KEY INSURANCE COMPANY');
  });

  it('carries the billing provider NPI and tax id as identifiers', () => {
    const provider = resolve<Organization>(bundle, claim!.provider.reference);
    expect(provider.identifier).toEqual([
      { system: 'http://hl7.org/fhir/sid/us-npi', value: '1912301953' },
      { system: 'urn:oid:2.16.840.1.113883.4.4', value: '587654321' },
    ]);
  });

  it('codes the diagnoses (ICD-9-CM, with the decimal point) and the service lines (CPT), charges and dates', () => {
    expect(claim!.identifier).toEqual([{ type: { text: 'Patient control number (CLM01)' }, value: '26463774' }]);
    expect(claim!.type.coding?.[0]?.code).toBe('professional');
    expect(claim!.created).toBe('2006-10-15');
    expect(claim!.billablePeriod).toEqual({ start: '2006-10-03', end: '2006-10-10' });
    expect(
      claim!.diagnosis?.map((d) => [
        d.diagnosisCodeableConcept?.coding?.[0]?.system,
        d.diagnosisCodeableConcept?.coding?.[0]?.code,
        d.type?.[0]?.coding?.[0]?.code,
      ]),
    ).toEqual([
      ['http://hl7.org/fhir/sid/icd-9-cm', '034.0', 'principal'],
      ['http://hl7.org/fhir/sid/icd-9-cm', 'V73.89', undefined],
    ]);
    expect(
      claim!.item?.map((i) => [
        i.productOrService.coding?.[0]?.code,
        i.net?.value,
        i.servicedDate,
        i.diagnosisSequence,
        i.locationCodeableConcept?.coding?.[0]?.code,
      ]),
    ).toEqual([
      ['99213', 40, '2006-10-03', [1], '11'],
      ['87070', 15, '2006-10-03', [1], '11'],
      ['99214', 35, '2006-10-10', [2], '11'],
      ['86663', 10, '2006-10-10', [2], '11'],
    ]);
    expect(claim!.item![0]!.productOrService.coding![0]!.system).toBe('http://www.ama-assn.org/go/cpt');
    expect(claim!.total).toEqual({ value: 100, currency: 'USD' });
  });

  it('gives the same ids when converted twice, and other ids for another interchange', () => {
    const again = claimsFrom837(interchange(x12Sample('837_005010X222A2/demo.example1.837'))).bundle;
    expect(again).toEqual(bundle);
    const other = claimsFrom837(interchange(x12Sample('837_005010X222A2/demo.example1.837').replaceAll('000000907', '000000908'))).bundle;
    expect(other.entry!.map((e) => e.fullUrl)).not.toContain(bundle.entry![0]!.fullUrl);
  });
});

describe('837P details', () => {
  it('ICD-10-CM codes from ABK/ABF qualifiers, and a pointer to no diagnosis is left out with a warning', () => {
    const text = x12Sample('837_005010X222A2/demo.example1.837')
      .replace('HI*BK:0340*BF:V7389', 'HI*ABK:J020*ABF:Z0000')
      .replace('SV1*HC:86663*10.00*UN*1.00***2', 'SV1*HC:86663*10.00*UN*1.00***2:3');
    const { bundle, warnings } = claimsFrom837(interchange(text));
    const [claim] = resources<Claim>(bundle, 'Claim');
    expect(claim!.diagnosis?.map((d) => d.diagnosisCodeableConcept?.coding?.[0])).toEqual([
      { system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'J02.0' },
      { system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'Z00.00' },
    ]);
    expect(claim!.item?.[3]?.diagnosisSequence).toEqual([2]);
    expect(warnings).toEqual(['claim 26463774: diagnosis pointer "3" of service line 4 points to no diagnosis (the claim has 2)']);
  });

  it('an auto accident (CLM11 AA, DTP*439), the rendering provider in the care team, HCPCS codes', () => {
    const { bundle } = claimsFrom837(interchange(x12Sample('837_005010X222A2/demo.autoaccident.837')));
    const [claim] = resources<Claim>(bundle, 'Claim');
    expect(claim!.accident).toMatchObject({
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      type: { coding: [{ code: 'MVA' }] },
      locationAddress: { state: 'CA' },
    });
    expect(claim!.careTeam?.[0]?.role?.coding?.[0]?.code).toBe('primary');
    expect(resolve<Practitioner>(bundle, claim!.careTeam?.[0]?.provider.reference).resourceType).toMatch(/Practitioner|Organization/);
    const ambulance = resources<Claim>(claimsFrom837(interchange(x12Sample('837_005010X222A2/demo.ambulance.example5.837'))).bundle, 'Claim')[0]!;
    expect(ambulance.item?.map((i) => i.productOrService.coding?.[0]?.system)).toContain('http://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets');
  });

  it('other payers (2320) become further insurances, not focal', () => {
    const { bundle } = claimsFrom837(interchange(x12Sample('837_005010X222A2/demo.cob.example3.B.837')));
    const [claim] = resources<Claim>(bundle, 'Claim');
    expect(claim!.insurance.length).toBeGreaterThan(1);
    expect(claim!.insurance.map((i) => i.focal)).toEqual([true, ...claim!.insurance.slice(1).map(() => false)]);
    const other = resolve<Coverage>(bundle, claim!.insurance[1]!.coverage.reference);
    expect(resolve<Organization>(bundle, other.payor[0]!.reference).resourceType).toBe('Organization');
  });
});

describe('837I', () => {
  it('4010 institutional: revenue codes, statement dates, procedures, attending physician, second payer', () => {
    const { bundle } = claimsFrom837(interchange(x12Sample('837_004010X096A1/institutional.837')));
    const [claim] = resources<Claim>(bundle, 'Claim');
    expect(claim!.type.coding?.[0]?.code).toBe('institutional');
    expect(claim!.billablePeriod).toEqual({ start: '1996-09-11', end: '1996-09-11' });
    expect(claim!.item?.map((i) => [i.revenue?.coding?.[0]?.code, i.productOrService.coding?.[0]?.code, i.quantity?.value, i.net?.value])).toEqual([
      ['305', '85025', 1, 13.39],
      ['730', '93005', 3, 76.54],
    ]);
    expect(claim!.diagnosis?.map((d) => d.diagnosisCodeableConcept?.coding?.[0]?.code)).toEqual(['366.9', '401.9', '794.31']);
    expect(claim!.procedure).toEqual([
      { sequence: 1, date: '1996-09-11', procedureCodeableConcept: { coding: [{ system: 'http://hl7.org/fhir/sid/icd-9-cm', code: '15.3' }] } },
    ]);
    const attending = resolve<Practitioner>(bundle, claim!.careTeam?.[0]?.provider.reference);
    expect(attending.name).toEqual([{ family: 'JONES', given: ['JOHN', 'J'] }]);
    expect(attending.qualification?.[0]?.code.coding?.[0]?.code).toBe('363LP0200N');
    expect(claim!.insurance).toHaveLength(2);
    const second = resolve<Coverage>(bundle, claim!.insurance[1]!.coverage.reference);
    expect(resolve<Organization>(bundle, second.payor[0]!.reference).name).toBe('STATE TEACHERS');
  });

  it('5010: two claims of one billing provider share its Organization and payer', () => {
    const { bundle } = claimsFrom837(interchange(x12Sample('837_005010X223A3/two-claims-single-provider.837i')));
    const claims = resources<Claim>(bundle, 'Claim');
    expect(claims.map((c) => c.identifier?.[0]?.value)).toEqual(['756048Q', '756049Q']);
    expect(new Set(claims.map((c) => c.provider.reference)).size).toBe(1);
    expect(resources<Organization>(bundle, 'Organization').map((o) => o.name)).toEqual(['JONES HOSPITAL', 'TRICARE']);
    expect(claims.map((c) => c.patient.reference)).toHaveLength(2);
    expect(new Set(claims.map((c) => c.patient.reference)).size).toBe(2);
  });
});
