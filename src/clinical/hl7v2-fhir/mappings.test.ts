import type {
  Bundle,
  ChargeItem,
  Consent,
  Coverage,
  DiagnosticReport,
  DocumentReference,
  Encounter,
  MedicationRequest,
  Observation,
  Patient,
  RelatedPerson,
  Resource,
  ServiceRequest,
} from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { parseMessage } from '@/clinical/hl7v2';
import { hl7Sample } from '../../../tests/support/clinical/hl7v2';
import { convertMessage } from './convert';

function convert(name: string): Bundle {
  return convertMessage(parseMessage(hl7Sample(name))).bundle;
}

function all<T extends Resource>(bundle: Bundle, type: T['resourceType']): T[] {
  return (bundle.entry ?? []).map((e) => e.resource!).filter((r): r is T => r.resourceType === type);
}

const ref = (r: Resource) => `${r.resourceType}/${r.id}`;

describe('pharmacy orders, charges and consents', () => {
  it('maps RXO to the order as placed and RXE to the pharmacy order based on it, with dose, route and dispense', () => {
    const [placed, encoded] = all<MedicationRequest>(convert('RDE-O11-01.hl7'), 'MedicationRequest');
    expect(placed).toMatchObject({
      intent: 'original-order',
      status: 'active',
      medicationCodeableConcept: { coding: [{ code: '00047040230', system: 'http://hl7.org/fhir/sid/ndc' }] },
      dispenseRequest: { quantity: { value: 10 }, numberOfRepeatsAllowed: 12 },
      substitution: { allowedCodeableConcept: { coding: [{ code: 'G' }] } },
    });
    expect(placed!.dosageInstruction![0]!.route?.coding?.[0]?.code).toBe('IV');
    expect(encoded).toMatchObject({
      intent: 'filler-order',
      basedOn: [{ reference: ref(placed!) }],
      medicationCodeableConcept: { coding: [{ code: '0143963401' }] },
    });
    expect(encoded!.identifier!.map((i) => i.value)).toContain('PN15');
    expect(encoded!.dosageInstruction![0]!.doseAndRate![0]!.rateQuantity).toMatchObject({ value: 23, unit: 'mL/hr' });
  });

  it('maps FT1 to a ChargeItem of the visit: code, quantity, price and the diagnoses it is for', () => {
    const bundle = convert('DFT-P03-01.hl7');
    const [xray] = all<ChargeItem>(bundle, 'ChargeItem');
    expect(xray).toMatchObject({
      status: 'billable',
      code: { coding: [{ code: '71045' }] },
      quantity: { value: 2 },
      priceOverride: { value: 100, currency: 'USD' },
      occurrenceDateTime: '2019-11-22',
    });
    expect(xray!.reason?.map((r) => r.coding?.[0]?.code)).toEqual(['29857009', '68235000']);
    expect(xray!.context?.reference).toBe(ref(all<Encounter>(bundle, 'Encounter')[0]!));
  });

  it('maps CON to a Consent given by the patient, whose name as consenter joins the Patient', () => {
    const bundle = convert('MDM-T01-01.hl7');
    const [patient] = all<Patient>(bundle, 'Patient');
    const [consent] = all<Consent>(bundle, 'Consent');
    expect(consent).toMatchObject({
      status: 'active',
      scope: { coding: [{ code: 'patient-privacy' }] },
      policyRule: { text: 'HIPAA Privacy Form + For Patient privacy' },
      performer: [{ reference: ref(patient!) }],
    });
    expect(patient!.name!.map((n) => n.family)).toEqual(['PROSOLV', 'Smith']);
  });
});

describe('insurance parties', () => {
  it('makes the insured of an IN1 without relationship (IN1-17) a RelatedPerson, not the patient', () => {
    const bundle = convert('ADT04-23.hl7');
    const patient = all<Patient>(bundle, 'Patient')[0]!;
    for (const c of all<Coverage>(bundle, 'Coverage')) expect(c.subscriber?.reference).toMatch(/^RelatedPerson\//);
    expect(all<Coverage>(bundle, 'Coverage').map((c) => c.beneficiary.reference)).toEqual([ref(patient), ref(patient)]);
  });

  it('makes the insured’s employer (IN2-3) the policy holder of the coverage of its IN1', () => {
    const bundle = convert('ADT01-23.hl7');
    const employer = all<RelatedPerson>(bundle, 'RelatedPerson').find((p) => p.relationship?.[0]?.coding?.[0]?.code === 'E')!;
    expect(employer).toMatchObject({ identifier: [{ value: '123121234' }], telecom: [{ value: '8885551212' }] });
    expect(all<Coverage>(bundle, 'Coverage').map((c) => c.policyHolder?.reference)).toEqual([ref(employer), ref(employer), undefined]);
  });
});

describe('links between records', () => {
  it('ties the observations of a patient update (A06) and an order read before the visit (REF^I12) to the visit', () => {
    const a06 = convert('ADT-A06-01.hl7');
    const visit = ref(all<Encounter>(a06, 'Encounter')[0]!);
    expect(all<Observation>(a06, 'Observation').map((o) => o.encounter?.reference)).toEqual([visit, visit]);
    const ref12 = convert('REF-I12-01.hl7');
    const visit12 = ref(all<Encounter>(ref12, 'Encounter')[0]!);
    expect(all<ServiceRequest>(ref12, 'ServiceRequest').map((s) => s.encounter?.reference)).toEqual([visit12, visit12]);
  });

  it('keeps the observations of a specimen (OBX after SPM) out of the order’s results', () => {
    const bundle = convert('ORU-R01-01.hl7');
    const report = all<DiagnosticReport>(bundle, 'DiagnosticReport').find((r) => r.code.coding?.[0]?.code === '625-4')!;
    const byCode = (code: string) => all<Observation>(bundle, 'Observation').find((o) => o.code.coding?.[0]?.code === code)!;
    expect(report.result?.map((r) => r.reference)).toEqual([ref(byCode('625-4'))]);
    expect(byCode('8867-4').basedOn).toBeUndefined();
    expect(byCode('8867-4').specimen?.reference).toMatch(/^Specimen\//);
  });

  it('reads the parent order (ORC-8) of an ORC that follows its OBR, and keeps it out of the visit and the document', () => {
    const orders = all<ServiceRequest>(convert('OUL-R24-01.hl7'), 'ServiceRequest');
    const parent = orders.find((o) => o.identifier?.[0]?.value === 'PAI-8.1')!;
    const scan = orders.find((o) => o.code?.coding?.[0]?.code === 'SCAN')!;
    expect(scan.basedOn).toEqual([{ reference: ref(parent) }]);
    expect([parent.encounter, parent.reasonReference]).toEqual([undefined, undefined]);
  });

  it('gives the report of an OBR the placer group number (ORC-4) of the ORC that follows it, as its order has', () => {
    const bundle = convert('OUL-R22-01.hl7');
    const scan = (type: 'ServiceRequest' | 'DiagnosticReport') =>
      all<ServiceRequest | DiagnosticReport>(bundle, type).find((r) => r.code?.coding?.[0]?.code === 'SCAN')!;
    for (const r of [scan('ServiceRequest'), scan('DiagnosticReport')]) {
      expect(r.identifier!.map((i) => [i.value, i.type?.coding?.[0]?.code])).toEqual([
        ['5ca95f51971d414bbcb4be9ca88e9846', 'PLAC'],
        ['40bcbe96bcbf8cda8b07403263b92cb4', 'FILL'],
        ['9adf2339de714c6698063e3ddf5d0167', 'PGN'],
      ]);
    }
  });

  it('ties the orders, their reports and the documents of results and document messages to the visit (US Core Must Support)', () => {
    for (const name of ['ORU-R01-01.hl7', 'MDM-T02-01.hl7']) {
      const bundle = convert(name);
      const visits = all<Encounter>(bundle, 'Encounter');
      expect(visits).toHaveLength(1);
      const visit = ref(visits[0]!);
      // (a parent order known only by its numbers, ORC-8, is not tied: nothing says it was made in this visit)
      const ordered = all<ServiceRequest>(bundle, 'ServiceRequest').filter((s) => s.code);
      expect(ordered.length).toBeGreaterThan(0);
      expect(ordered.map((s) => s.encounter?.reference)).toEqual(ordered.map(() => visit));
      // the reports of orders (an OBR's); a document result of an OBX stands apart, as in the templates
      const reports = all<DiagnosticReport>(bundle, 'DiagnosticReport').filter((r) => r.basedOn);
      expect(reports.map((r) => r.encounter?.reference)).toEqual(reports.map(() => visit));
      expect(all<DocumentReference>(bundle, 'DocumentReference').map((d) => d.context?.encounter?.[0]?.reference)).toEqual(
        all<DocumentReference>(bundle, 'DocumentReference').map(() => visit),
      );
    }
  });

  it('keeps the OBX of a document message (MDM^T02) out of the results of its order, which the document is the reason for', () => {
    const bundle = convert('MDM-T02-01.hl7');
    const [order] = all<ServiceRequest>(bundle, 'ServiceRequest');
    const [doc] = all<DocumentReference>(bundle, 'DocumentReference');
    expect(order!.reasonReference).toEqual([{ reference: ref(doc!) }]);
    expect([...all<Observation>(bundle, 'Observation'), ...all<DiagnosticReport>(bundle, 'DiagnosticReport')].map((r) => r.basedOn)).toEqual([
      undefined,
      undefined,
    ]);
  });

  it('makes the prior results of an OMG order (the PV1 group after it) the order’s supporting information', () => {
    const bundle = convert('OMG-O19-01.hl7');
    const [order, prior] = all<ServiceRequest>(bundle, 'ServiceRequest');
    const [firstVisit, priorVisit] = all<Encounter>(bundle, 'Encounter');
    const document = all<DiagnosticReport>(bundle, 'DiagnosticReport').find((r) => r.code.coding?.[0]?.code === '3DHISTECH_SD')!;
    const value = all<Observation>(bundle, 'Observation').find((o) => o.code.coding?.[0]?.code === '3DHISTECH_SD')!;
    expect(order!.supportingInfo).toEqual([prior, document, value].map((r) => ({ reference: ref(r!) })));
    expect([order!.encounter?.reference, prior!.encounter?.reference]).toEqual([ref(firstVisit!), ref(priorVisit!)]);
    expect(prior!.supportingInfo).toBeUndefined();
  });
});
