import type {
  Bundle,
  Condition,
  Encounter,
  Immunization,
  Location,
  MedicationDispense,
  MedicationRequest,
  Observation,
  Organization,
  Patient,
  RelatedPerson,
  Resource,
  ServiceRequest,
} from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { parseMessage } from '@/clinical/hl7v2';
import { convertMessage } from './convert';

// Fields the FHIR-Converter templates map that no shared sample exercised (the audit of issue 26, item 6):
// each message is written here, field by field, so what it says is plain.

/** A segment from its fields by number: `seg('PV1', { 2: 'I', 3: '4E^401^B' })` → `PV1||I|4E^401^B`. */
function seg(id: string, fields: Record<number, string>): string {
  const last = Math.max(0, ...Object.keys(fields).map(Number));
  return [id, ...Array.from({ length: last }, (_, i) => fields[i + 1] ?? '')].join('|');
}

function convert(type: string, ...segments: string[]): Bundle {
  const msh = `MSH|^~\\&|APP|FAC|REC|RFAC|20240101120000||${type}|MSG${segments.length}|P|2.5`;
  return convertMessage(parseMessage([msh, ...segments].join('\r'))).bundle;
}

function all<T extends Resource>(bundle: Bundle, type: T['resourceType']): T[] {
  return (bundle.entry ?? []).map((e) => e.resource!).filter((r): r is T => r.resourceType === type);
}

const PID = seg('PID', { 1: '1', 3: '12345^^^HOSP^MR', 5: 'DOE^JANE', 8: 'F' });

describe('visit (PV1, PV2)', () => {
  const bundle = convert(
    'ADT^A01',
    PID,
    seg('PV1', {
      2: 'I',
      3: '4E^401^B^GENHOSP^^N^MAIN^4',
      6: '3W^301^A^GENHOSP',
      19: 'V100^^^HOSP^VN',
      37: 'HOM&Home^20240110',
      42: '5N^501^A^GENHOSP',
      52: 'P77^Other^Olga',
    }),
    seg('PV2', { 11: '5', 13: 'R9^Sender^Sam', 22: 'Y', 25: '2' }),
  );
  const [encounter] = all<Encounter>(bundle, 'Encounter');
  const locations = new Map(all<Location>(bundle, 'Location').map((l) => [`Location/${l.id}`, l]));
  const chain = (ref: string | undefined): string[] => {
    const l = ref ? locations.get(ref) : undefined;
    return l ? [l.name!, ...chain(l.partOf?.reference)] : [];
  };

  it('says where the patient is: the bed of PV1-3, within its room, unit, floor, building and facility', () => {
    expect(encounter!.location![0]!.status).toBe('active');
    expect(chain(encounter!.location![0]!.location.reference)).toEqual(['B', '401', '4E', '4', 'MAIN', 'GENHOSP']);
    expect(locations.get(encounter!.location![0]!.location.reference!)!.type?.[0]?.coding?.[0]?.code).toBe('N');
  });

  it('keeps where the patient was (PV1-6, completed) and will be (PV1-42, planned), the same facility shared', () => {
    const [, prior, pending] = encounter!.location!;
    expect(prior).toMatchObject({ status: 'completed' });
    expect(chain(prior!.location.reference)).toEqual(['A', '301', '3W', 'GENHOSP']);
    expect(pending).toMatchObject({ status: 'planned' });
    expect(chain(pending!.location.reference)).toEqual(['A', '501', '5N', 'GENHOSP']);
    expect(all<Location>(bundle, 'Location').filter((l) => l.name === 'GENHOSP')).toHaveLength(1);
  });

  it('maps the other provider (PV1-52), the referral source (PV2-13), length of stay, priority, protection and destination', () => {
    const roles = encounter!.participant!.map((p) => p.type![0]!.coding![0]!.code);
    expect(roles).toEqual(expect.arrayContaining(['PART', 'REF']));
    expect(encounter!.length).toMatchObject({ value: 5, unit: 'd' });
    expect(encounter!.priority?.coding?.[0]?.code).toBe('UR');
    expect(encounter!.meta?.security?.[0]?.code).toBe('R');
    expect(locations.get(encounter!.hospitalization!.destination!.reference!)!.name).toBe('Home');
  });
});

describe('what PID says in extensions', () => {
  const pid = seg('PID', {
    1: '1',
    3: '12345^^^HOSP^MR',
    5: 'DOE^JANE',
    6: 'SMITH^MARY',
    10: '2106-3^White^CDCREC~2131-1^Other Race^CDCREC',
    17: 'CAT^Catholic^HL70006',
    22: 'H^Hispanic^HL70189',
    23: 'Springfield General',
    28: 'US^United States^ISO3166_1',
  });
  const [patient] = all<Patient>(convert('ADT^A04', pid), 'Patient');
  const ext = (url: string) => patient!.extension?.find((e) => e.url.endsWith(url));

  it('maps race and ethnicity as US Core does: OMB categories, detailed codes and the text', () => {
    expect(ext('us-core-race')!.extension).toEqual([
      { url: 'ombCategory', valueCoding: { code: '2106-3', display: 'White', system: 'urn:oid:2.16.840.1.113883.6.238' } },
      { url: 'detailed', valueCoding: { code: '2131-1', display: 'Other Race', system: 'urn:oid:2.16.840.1.113883.6.238' } },
      { url: 'text', valueString: 'White, Other Race' },
    ]);
    expect(ext('us-core-ethnicity')!.extension?.[0]).toEqual({
      url: 'ombCategory',
      valueCoding: { code: '2135-2', display: 'Hispanic or Latino', system: 'urn:oid:2.16.840.1.113883.6.238' },
    });
  });

  it('maps the mother’s maiden name, birth place, religion and nationality', () => {
    expect(ext('patient-mothersMaidenName')!.valueString).toBe('SMITH');
    expect(ext('patient-birthPlace')!.valueAddress).toEqual({ text: 'Springfield General' });
    expect(ext('patient-religion')!.valueCodeableConcept?.coding?.[0]?.code).toBe('CAT');
    expect(ext('patient-nationality')!.extension?.[0]?.valueCodeableConcept?.coding?.[0]?.code).toBe('US');
  });
});

describe('observation values (OBX-2, OBX-5)', () => {
  const obx = (n: number, type: string, value: string, code = `C${n}^Code ${n}^L`) => seg('OBX', { 1: String(n), 2: type, 3: code, 5: value, 11: 'F' });
  const bundle = convert(
    'ORU^R01',
    PID,
    seg('OBR', { 1: '1', 2: 'P1', 3: 'F1', 4: 'PANEL^Panel^L', 25: 'F' }),
    obx(1, 'SN', '^2^+'),
    obx(2, 'VR', '1^5'),
    obx(3, 'DR', '20240101^20240105'),
    obx(4, 'IS', 'POS'),
    obx(5, 'TX', 'first line~second line'),
    obx(6, 'CWE', '^^^^^^^^^A1^Alternate^L'),
  );
  const byCode = new Map(all<Observation>(bundle, 'Observation').map((o) => [o.code.coding![0]!.code, o]));

  it('gives each value type what the reference gives it', () => {
    expect(byCode.get('C1')!.valueString).toBe('2 +');
    expect(byCode.get('C2')!.valueString).toBe('1-5');
    expect(byCode.get('C3')!.valuePeriod).toEqual({ start: '2024-01-01', end: '2024-01-05' });
    expect(byCode.get('C4')!.valueCodeableConcept).toEqual({ coding: [{ code: 'POS' }] });
    expect(byCode.get('C6')!.valueCodeableConcept?.coding?.[0]).toMatchObject({ code: 'A1', display: 'Alternate' });
  });

  it('makes a repeated text value one component per repetition', () => {
    const text = byCode.get('C5')!;
    expect(text.valueString).toBeUndefined();
    expect(text.component?.map((c) => c.valueString)).toEqual(['first line', 'second line']);
  });
});

describe('dispenses (RXD, FT1-29)', () => {
  it('makes an RXD a MedicationDispense that fills the order’s MedicationRequest, and a drug billed by FT1 one too', () => {
    const bundle = convert(
      'RDS^O13',
      PID,
      seg('ORC', { 1: 'NW', 2: 'P9', 5: 'CM' }),
      seg('RXE', { 2: '01151327^Doxycycline^NDC', 3: '1', 5: 'TAB^Tablet^L' }),
      seg('RXD', { 1: '1', 2: '01151327^Doxycycline^NDC', 3: '20201212', 4: '10', 5: 'TAB^Tablet^L', 7: 'PN1', 9: '^After food', 11: 'N' }),
      seg('RXR', { 1: 'PO^oral^HL70162' }),
      seg('FT1', { 1: '1', 4: '20201212', 6: 'CG', 7: '99^Drug^L', 29: '0182-1061-05^ASPIRIN EC^NDC', 42: 'PN2', 43: '5^CAP&Capsule&L' }),
    );
    const [dispensed, billed] = all<MedicationDispense>(bundle, 'MedicationDispense');
    const [request] = all<MedicationRequest>(bundle, 'MedicationRequest');
    expect(dispensed).toMatchObject({
      status: 'completed',
      whenHandedOver: '2020-12-12',
      quantity: { value: 10, unit: 'Tablet' },
      note: [{ text: 'After food' }],
      substitution: { wasSubstituted: false },
    });
    expect(dispensed!.authorizingPrescription?.[0]).toMatchObject({ reference: `MedicationRequest/${request!.id}`, identifier: { value: 'PN1' } });
    expect(dispensed!.dosageInstruction?.[0]?.route?.coding?.[0]?.code).toBe('PO');
    expect(billed).toMatchObject({
      medicationCodeableConcept: { coding: [{ code: '0182-1061-05' }] },
      quantity: { value: 5, unit: 'Capsule' },
      authorizingPrescription: [{ identifier: { value: 'PN2' } }],
    });
  });
});

describe('immunization (RXA) and diagnosis (DG1)', () => {
  it('maps the vaccine’s indication, manufacturer, place and ordering provider, and the diagnosing clinician', () => {
    const bundle = convert(
      'VXU^V04',
      PID,
      seg('ORC', { 1: 'RE', 2: 'P5', 12: 'O1^Order^Olive' }),
      seg('RXA', {
        1: '0',
        2: '1',
        3: '20240101',
        5: '08^HepB^CVX',
        6: '0.5',
        7: 'mL^mL^UCUM',
        11: '^^^CLINIC1',
        17: 'MSD^Merck^MVX',
        19: 'Z23^Vaccination^I10',
      }),
    );
    const [imm] = all<Immunization>(bundle, 'Immunization');
    expect(imm!.reasonCode?.[0]?.coding?.[0]?.code).toBe('Z23');
    expect(imm!.performer?.map((p) => p.function?.coding?.[0]?.code)).toEqual(['OP']);
    const org = all<Organization>(bundle, 'Organization').find((o) => `Organization/${o.id}` === imm!.manufacturer?.reference);
    expect(org).toMatchObject({ name: 'Merck', identifier: [{ value: 'MSD' }] });
    expect(all<Location>(bundle, 'Location').find((l) => `Location/${l.id}` === imm!.location?.reference)?.name).toBe('CLINIC1');
    const [condition] = all<Condition>(convert('ADT^A08', PID, seg('DG1', { 1: '1', 3: 'I10^Hypertension^I10', 16: 'D2^Diag^Dora' })), 'Condition');
    expect(condition!.asserter?.reference).toMatch(/^Practitioner\//);
  });
});

describe('notes (NTE)', () => {
  it('makes an NTE a note of the order or result it follows, with its time and author', () => {
    const bundle = convert(
      'ORU^R01',
      PID,
      seg('OBR', { 1: '1', 2: 'P1', 3: 'F1', 4: 'PANEL^Panel^L', 25: 'F' }),
      seg('NTE', { 1: '1', 3: 'Fasting specimen' }),
      seg('OBX', { 1: '1', 2: 'NM', 3: 'GLU^Glucose^L', 5: '99', 11: 'F' }),
      seg('NTE', { 1: '1', 3: 'Repeated~and confirmed', 5: 'D1^Lab^Larry', 6: '20240102030405' }),
    );
    expect(all<ServiceRequest>(bundle, 'ServiceRequest')[0]!.note).toEqual([{ text: 'Fasting specimen' }]);
    const [note] = all<Observation>(bundle, 'Observation')[0]!.note!;
    expect(note).toMatchObject({ text: 'Repeated\nand confirmed', time: '2024-01-02T03:04:05+00:00' });
    expect(note!.authorReference?.reference).toMatch(/^Practitioner\//);
  });
});

describe('the insured, the guarantor and next of kin', () => {
  const in1 = (relationship: string) => seg('IN1', { 1: '1', 2: 'PLAN', 3: 'INS1', 4: 'Insurer', 16: 'ROE^RICHARD', 17: relationship, 36: 'POL1' });
  const in2 = seg('IN2', { 1: 'EMP7^^^CORP', 2: '123-45-6789', 63: '^PRN^PH^^^555^1234567' });

  it('gives the patient the insured’s identifiers and phone (IN2-1, IN2-2, IN2-63) when IN1-17 says the insured is the patient', () => {
    const [patient] = all<Patient>(convert('ADT^A04', PID, seg('PV1', { 2: 'O' }), in1('SEL'), in2), 'Patient');
    expect(patient!.identifier!.map((i) => i.value)).toEqual(expect.arrayContaining(['EMP7', '123-45-6789']));
    expect(patient!.identifier!.find((i) => i.value === '123-45-6789')!.type?.coding?.[0]?.code).toBe('SS');
    expect(patient!.telecom?.map((t) => t.value)).toContain('(555) 1234567');
  });

  it('gives them to the insured person otherwise', () => {
    const bundle = convert('ADT^A04', PID, seg('PV1', { 2: 'O' }), in1('SPO'), in2);
    expect(all<Patient>(bundle, 'Patient')[0]!.identifier!.map((i) => i.value)).not.toContain('123-45-6789');
    const insured = all<RelatedPerson>(bundle, 'RelatedPerson').find((p) => p.name?.[0]?.family === 'ROE')!;
    expect(insured.identifier!.map((i) => i.value)).toEqual(['EMP7', '123-45-6789']);
  });

  it('takes the birth date and gender of a self-guarantor (GT1-8, GT1-9) where PID has none', () => {
    const pid = seg('PID', { 1: '1', 3: '777^^^HOSP^MR', 5: 'POE^ANN' });
    const [patient] = all<Patient>(convert('ADT^A04', pid, seg('GT1', { 1: '1', 3: 'POE^ANN', 8: '19700203', 9: 'F', 11: 'SEL' })), 'Patient');
    expect(patient).toMatchObject({ birthDate: '1970-02-03', gender: 'female' });
  });

  it('makes every next of kin a contact of the patient as well, an employer a contact only', () => {
    const bundle = convert(
      'ADT^A04',
      PID,
      seg('NK1', { 1: '1', 2: 'DOE^JOHN', 3: 'SPO', 5: '^PRN^PH^^^555^7654321' }),
      seg('NK1', { 1: '2', 2: 'ACME', 3: 'EMR', 7: 'E' }),
    );
    const [patient] = all<Patient>(bundle, 'Patient');
    expect(patient!.contact?.map((c) => c.name?.family)).toEqual(['DOE', 'ACME']);
    expect(patient!.contact?.[0]?.telecom?.[0]).toMatchObject({ value: '(555) 7654321', use: 'home' });
    expect(all<RelatedPerson>(bundle, 'RelatedPerson').map((p) => p.name?.[0]?.family)).toEqual(['DOE']);
  });

  it('gives a next of kin their identifier (NK1-12) and social security number (NK1-37)', () => {
    const [kin] = all<RelatedPerson>(
      convert('ADT^A04', PID, seg('NK1', { 1: '1', 2: 'DOE^JOHN', 3: 'SPO', 12: 'K55^^^HOSP', 37: '987-65-4321' })),
      'RelatedPerson',
    );
    expect(kin!.identifier!.map((i) => i.value)).toEqual(['K55', '987-65-4321']);
  });
});
