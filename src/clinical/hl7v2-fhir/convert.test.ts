import type {
  Appointment,
  Bundle,
  ChargeItem,
  Condition,
  DiagnosticReport,
  DocumentReference,
  Encounter,
  Immunization,
  Linkage,
  Observation,
  Patient,
  Procedure,
  Resource,
  ServiceRequest,
} from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { parseMessage } from '@/clinical/hl7v2';
import { hl7Sample, hl7Samples } from '../../../tests/support/clinical/hl7v2';
import { r4Errors } from '../../../tests/support/clinical/x12';
import { convertMessage, UnsupportedMessageError } from './convert';

function convert(name: string): Bundle {
  return convertMessage(parseMessage(hl7Sample(name))).bundle;
}

function all<T extends Resource>(bundle: Bundle, type: T['resourceType']): T[] {
  return (bundle.entry ?? []).map((e) => e.resource!).filter((r): r is T => r.resourceType === type);
}

function references(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => references(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'reference' && typeof v === 'string') out.push(v);
      else references(v, out);
    }
  }
  return out;
}

describe('convertMessage on every sample', () => {
  const samples = hl7Samples().map((s) => ({ name: s.name, message: parseMessage(s.text) }));

  it.each(samples.map((s) => [s.name, s.message] as const))('%s: a valid R4 bundle whose references all resolve, the same every time', (_name, message) => {
    const { bundle } = convertMessage(message);
    expect(r4Errors(bundle)).toEqual([]);
    const ids = bundle.entry!.map((e) => `${e.resource!.resourceType}/${e.resource!.id}`);
    expect(new Set(ids).size).toBe(ids.length);
    for (const ref of references(bundle.entry!.map((e) => e.resource))) expect(ids).toContain(ref);
    expect(bundle.entry!.map((e) => e.fullUrl)).toEqual(bundle.entry!.map((e) => `urn:uuid:${e.resource!.id}`));
    expect(convertMessage(message).bundle).toEqual(bundle);
    // every message is about a patient, or (a merge) says which record of one replaces which
    expect(all<Patient>(bundle, 'Patient').length + all<Linkage>(bundle, 'Linkage').length).toBeGreaterThan(0);
  });
});

describe('convertMessage mappings', () => {
  it('maps PID to Patient: identifiers, names, birth date, gender (table 0001), address, marital status', () => {
    const [p] = all<Patient>(convert('ADT-A01-01.hl7'), 'Patient');
    expect(p!.identifier!.slice(0, 3).map((i) => [i.value, i.type?.coding?.[0]?.code])).toEqual([
      ['1234567', 'MR'],
      ['PATID1234', 'MR'],
      ['123456789', 'SS'],
    ]);
    // every XPN component: given 2, 3 and 15 (called-by, on a usual name), suffix 4, degree 6, professional
    // suffix 14, prefix 5, type 7 → use, validity 10 or effective/expiration 12/13 → period
    expect(p!.name!.slice(0, 2)).toEqual([
      { family: 'EVERYMAN', given: ['ADAM', 'A', 'Addsm'], suffix: ['III', 'MD', 'PF'], prefix: ['Dr.'], use: 'usual', period: { start: '1924-10-12' } },
      { family: 'Josh', given: ['stanley'], use: 'official', period: { start: '1924-10-10', end: '1924-10-15' } },
    ]);
    expect(p!.name!.map((n) => n.family)).toContain('elbert'); // PID-9 alias
    expect(p!.identifier!.map((i) => i.value)).toEqual(expect.arrayContaining(['G-SSN-12', 'Medicare-12345', 'DB123'])); // GT1 (self), IN2, DB1
    expect([p!.birthDate, p!.gender]).toEqual(['1988-08-18', 'male']);
    expect(p!.address![0]).toMatchObject({ line: ['1000', 'Ste. 123'], city: 'Ann Arbor', state: 'MI', postalCode: '99999', country: 'USA' });
    expect(p!.maritalStatus?.coding?.[0]).toMatchObject({ code: 'M', system: 'http://terminology.hl7.org/CodeSystem/v3-MaritalStatus' });
    const female = all<Patient>(
      convertMessage(parseMessage('MSH|^~\\&|A|B|C|D|20240101||ADT^A04|1|P|2.5\rPID|1||X1||DOE^JANE||20000101|F\r')).bundle,
      'Patient',
    );
    expect(female[0]!.gender).toBe('female');
  });

  it('maps PV1-2 to Encounter.class (I → IMP, E → EMER, O → AMB) and lists DG1 diagnoses on the Encounter', () => {
    const classOf = (pv1: string) =>
      all<Encounter>(convertMessage(parseMessage(`MSH|^~\\&|A|B|C|D|20240101||ADT^A01|1|P|2.5\rPID|1||X1||DOE^JANE\rPV1|1|${pv1}\r`)).bundle, 'Encounter')[0]!
        .class.code;
    expect(['I', 'E', 'O'].map(classOf)).toEqual(['IMP', 'EMER', 'AMB']);
    const bundle = convert('ADT-A01-01.hl7');
    const [enc] = all<Encounter>(bundle, 'Encounter');
    const dx = all<Condition>(bundle, 'Condition').find((c) => c.code?.coding?.[0]?.code === '422504002')!;
    expect(enc!.diagnosis?.map((d) => d.condition.reference)).toEqual([`Condition/${dx.id}`]);
    expect(enc!.identifier?.[0]?.value).toBe('40007716'); // PV1-19 visit number
  });

  it('maps ORU OBR/OBX to DiagnosticReport and Observations by value type, with statuses from tables 0123 and 0085', () => {
    const bundle = convert('LAB-ORU-1.hl7');
    const reports = all<DiagnosticReport>(bundle, 'DiagnosticReport');
    expect(reports.map((r) => [r.code.coding?.[0]?.code, r.status, r.result?.length])).toEqual([
      ['24317-0', 'final', 5],
      ['26464-8', 'unknown', 5],
    ]);
    const obs = all<Observation>(bundle, 'Observation');
    expect(obs.find((o) => o.code.coding?.[0]?.code === '11125-2')).toMatchObject({
      status: 'final',
      valueQuantity: { value: 221, unit: 'giga.l-1' },
      interpretation: [{ coding: [{ code: 'N' }] }],
    });
    expect(obs.find((o) => o.code.coding?.[0]?.code === '11156-7')).not.toHaveProperty('valueQuantity');
  });

  it('maps an OBX with repeated values to components, and an ED document to a DiagnosticReport with its data', () => {
    const heart = all<Observation>(convert('ADT-A01-01.hl7'), 'Observation').find((o) => o.code.coding?.[0]?.code === '8867-4')!;
    expect(heart.component?.map((c) => c.valueQuantity?.value)).toEqual([60, 120]);
    const image = all<DiagnosticReport>(convert('OUL-R22-01.hl7'), 'DiagnosticReport').find((r) => r.code.coding?.[0]?.code === '3DHISTECH_THUMBNAIL')!;
    expect(image.presentedForm).toEqual([{ contentType: 'image/jpeg', data: 'VGhpcyBpcyBhIEJhc2U2NCBzdHJpbmc=' }]);
  });

  it('maps VXU RXA to Immunization with its observations part of it', () => {
    const bundle = convert('VXU-V04-01.hl7');
    const [imm] = all<Immunization>(bundle, 'Immunization');
    expect(imm).toMatchObject({ status: 'completed', vaccineCode: { coding: [{ system: 'http://hl7.org/fhir/sid/ndc' }] } });
    expect(all<Immunization>(convert('IZ_1_1.1_Admin_Child_Max_Message.hl7'), 'Immunization')[0]!.vaccineCode.coding?.[0]).toMatchObject({
      code: '140',
      display: 'Influenza, seasonal, injectable, preservative free',
      system: 'http://hl7.org/fhir/sid/cvx',
    });
    expect(all<Observation>(bundle, 'Observation').filter((o) => o.partOf?.[0]?.reference === `Immunization/${imm!.id}`).length).toBeGreaterThan(0);
  });

  it('maps SIU SCH/AIS/TQ1 to an Appointment with start, end, status and the patient', () => {
    const booked = all<Appointment>(convert('SIU-S12-01.hl7'), 'Appointment')[0]!;
    expect(booked).toMatchObject({ status: 'booked', identifier: [{ value: '12345' }, { value: '36996' }] });
    expect([booked.start, booked.end]).toEqual(['2021-09-24T09:30:00+02:15', '2021-09-24T10:20:00+02:15']);
    expect(booked.participant[0]!.actor?.reference).toMatch(/^Patient\//);
    expect(all<Appointment>(convert('SIU-S15-01.hl7'), 'Appointment')[0]!.status).toBe('cancelled');
  });

  it('maps MDM TXA to a DocumentReference of the patient', () => {
    const [doc] = all<DocumentReference>(convert('MDM-T02-01.hl7'), 'DocumentReference');
    expect(doc).toMatchObject({
      status: 'current',
      docStatus: 'final',
      type: { coding: [{ code: 'DI' }] },
      masterIdentifier: { value: '1.2.840.317.5947431.51.20080131160038' },
    });
    expect(doc!.subject?.reference).toMatch(/^Patient\//);
  });

  it('maps a merge (A40) and an account merge (A41) to a Linkage of the records by identifier, and a visit move (A45) to the visit of its patient', () => {
    const a40 = convert('ADT-A40-01.hl7');
    expect(all<Patient>(a40, 'Patient')).toEqual([]);
    const [link] = all<Linkage>(a40, 'Linkage');
    expect(link!.item).toEqual([
      { type: 'source', resource: { type: 'Patient', identifier: expect.objectContaining({ value: '12345', system: expect.stringMatching(/BCBS$/) }) } },
      { type: 'historical', resource: { type: 'Patient', identifier: expect.objectContaining({ value: '56789' }) } },
    ]);
    const a41 = convert('ADT-A41-01.hl7');
    expect(all<Linkage>(a41, 'Linkage').map((l) => l.item.map((i) => `${i.type} ${i.resource.type} ${i.resource.identifier?.value}`))).toEqual([
      ['source Account 4000776', 'historical Account ACC1234'],
    ]);
    expect(all<Encounter>(a41, 'Encounter')).toEqual([]);
    // a visit moved to another patient (A45) stays that patient's visit; the patient it came from is not replaced
    const a45 = convert('ADT-A45-01.hl7');
    const [patient] = all<Patient>(a45, 'Patient');
    expect(all<Patient>(a45, 'Patient')).toHaveLength(1);
    expect(patient!.link).toBeUndefined();
    expect(all<Encounter>(a45, 'Encounter')[0]!.subject).toEqual({ reference: `Patient/${patient!.id}` });
  });

  it('gives a patient, a visit and a practitioner the same id in every message of the sender, and the rest ids of the message', () => {
    const a01 = convert('ADT-A01-01.hl7');
    const a02 = convert('ADT-A02-01.hl7');
    const s12 = convert('SIU-S12-01.hl7'); // another message (MSG00012) about the same patient
    const idOf = (b: Bundle, type: string) => all(b, type as Resource['resourceType']).map((r) => r.id);
    expect(idOf(s12, 'Patient')).toEqual(idOf(a01, 'Patient'));
    expect(idOf(a02, 'Encounter')).toEqual(idOf(a01, 'Encounter')); // the same visit number, 40007716
    expect(idOf(s12, 'Practitioner').filter((id) => idOf(a01, 'Practitioner').includes(id)).length).toBeGreaterThan(0);
    expect(idOf(s12, 'MessageHeader')).not.toEqual(idOf(a01, 'MessageHeader'));
    expect(idOf(s12, 'Observation').filter((id) => idOf(a01, 'Observation').includes(id))).toEqual([]);
  });

  it('keeps what it can of a sparse message: no PID gives no patient resources, and a non-numeric NM value stays text', () => {
    const bare = convertMessage(
      parseMessage('MSH|^~\\&|LIS|LAB|||20240105083000||ORU^R01|7|P|2.5\rOBR|1||F1|1234-5^Test^LN\rOBX|1|NM|1234-5^Test^LN||pending\r'),
    ).bundle;
    expect(bare.entry!.map((e) => e.resource!.resourceType)).toEqual(['MessageHeader', 'Device']);
    expect(r4Errors(bare)).toEqual([]);
    const text = convertMessage(parseMessage('MSH|^~\\&|LIS|LAB|||20240105083000||ORU^R01|7|P|2.5\rPID|1||P1\rOBX|1|NM|1234-5^Test^LN||pending|mg\r')).bundle;
    expect(all<Observation>(text, 'Observation')[0]).toMatchObject({ valueString: 'pending', status: 'unknown' });
  });

  it('makes the procedures an order bills (FT1-25 within an order that has a placer number, ORC-2) with the charge for them', () => {
    const orm = convert('ORM-O01-01.hl7');
    const [patient] = all<Patient>(orm, 'Patient');
    const procedures = all<Procedure>(orm, 'Procedure');
    expect(procedures).toEqual([
      expect.objectContaining({
        status: 'unknown',
        code: { coding: [{ code: '71045', display: 'Xray exam chest 1 view', system: 'http://www.ama-assn.org/go/cpt' }] },
        subject: { reference: `Patient/${patient!.id}` },
      }),
    ]);
    expect(all<ChargeItem>(orm, 'ChargeItem')[0]!.service).toEqual([{ reference: `Procedure/${procedures[0]!.id}` }]);
    // the same FT1 in an order without a placer number (OMG-O19-01's ORC-2 is empty): no order to tie it to
    expect(all<Procedure>(convert('OMG-O19-01.hl7'), 'Procedure')).toEqual([]);
    expect(r4Errors(orm)).toEqual([]);
  });

  it('makes a Procedure of PR1 with the procedure it is part of (PR1-25), and of the death certification and the autopsy PDA states', () => {
    const a01 = convert('ADT-A01-01.hl7');
    const procedures = all<Procedure>(a01, 'Procedure');
    const byCode = (code: string) => procedures.find((p) => p.code?.coding?.[0]?.code === code);
    const parent = procedures.find((p) => !p.code)!;
    expect(parent).toMatchObject({ status: 'unknown', identifier: [{ value: 'PR1001' }] });
    expect(byCode('76164006')).toMatchObject({
      status: 'unknown',
      partOf: [{ reference: `Procedure/${parent.id}` }],
      performedDateTime: '2005-01-25T11:40:00+01:00',
    });
    expect(byCode('76164006')!.performer!.map((p) => p.function?.text)).toEqual(['Anesthesiologist', 'Surgeon', 'Procedure Practitioner']);
    expect(byCode('death-certification')).toMatchObject({
      status: 'completed',
      performedDateTime: '2021-11-02T12:30:00+01:15',
      performer: [{ function: { text: 'Death Certified By' } }],
    });
    expect(byCode('autopsy-performed')).toMatchObject({
      status: 'completed',
      performedPeriod: { start: '2021-11-02T10:30:00+01:15', end: '2021-11-02T11:30:00+01:15' },
    });
    expect(procedures).toHaveLength(4);
    expect(r4Errors(a01)).toEqual([]);
  });

  it("leaves the patient's name and numbers alone when the guarantor is an organization (GT1-21), even one marked self (GT1-11 SEL)", () => {
    const b = convertMessage(
      parseMessage(
        'MSH|^~\\&|A|B|C|D|20240101||BAR^P01|1|P|2.5\rPID|1||X1||DOE^JANE||20000101|F\rGT1|1|1516|RADIANT^LUCY||||||||SEL|G-SSN-12|||||||||Jupiter Hospital\r',
      ),
    ).bundle;
    const [p] = all<Patient>(b, 'Patient');
    expect(p!.name!.map((n) => n.family)).toEqual(['DOE']);
    expect(p!.identifier!.map((i) => i.value)).toEqual(['X1']);
    expect(all(b, 'RelatedPerson')).toEqual([]);
  });

  it('makes a DocumentReference of every TXA, with its own content, each the reason of the order before it', () => {
    const msg = [
      'MSH|^~\\&|LIS|LAB|||20240105083000||OUL^R23|9|P|2.5',
      'PID|1||P1||DOE^JANE||20000101|F',
      'OBR|1|PL1|FL1|SCAN^Scan^L',
      'TXA|1|DIS||20240105',
      'OBX|1|TX|TEXT^Text^L||first report',
      'OBR|2|PL2|FL2|SCAN^Scan^L',
      'TXA|1|CN||20240106',
      'OBX|1|TX|TEXT^Text^L||second note',
    ].join('\r');
    const b = convertMessage(parseMessage(msg)).bundle;
    const docs = all<DocumentReference>(b, 'DocumentReference');
    expect(docs.map((d) => d.type?.coding?.[0]?.code)).toEqual(['DIS', 'CN']);
    const text = (d: DocumentReference) => Buffer.from(d.content[0]!.attachment.data ?? '', 'base64').toString();
    expect(docs.map(text)).toEqual(['first report', 'second note']);
    const orders = all<ServiceRequest>(b, 'ServiceRequest');
    expect(orders.map((o) => o.reasonReference)).toEqual([
      [{ reference: `DocumentReference/${docs[0]!.id}` }],
      [{ reference: `DocumentReference/${docs[1]!.id}` }],
    ]);
    expect(r4Errors(b)).toEqual([]);
  });

  it('gives a quantity its unit as people read it (OBX-6.2) and the coded unit (OBX-6.1) as its code', () => {
    const b = convertMessage(
      parseMessage(
        'MSH|^~\\&|LIS|LAB|||20240105083000||ORU^R01|7|P|2.5\rPID|1||P1\rOBR|1||F1|58410-2^CBC^LN\rOBX|1|NM|26453-1^Erythrocytes^LN||4.41|10*6/uL^million per microliter^UCUM||||||F\rOBX|2|NM|718-7^Hemoglobin^LN||12.5|g/dL||||||F\r',
      ),
    ).bundle;
    expect(all<Observation>(b, 'Observation').map((o) => o.valueQuantity)).toEqual([
      { value: 4.41, unit: 'million per microliter', system: 'http://unitsofmeasure.org', code: '10*6/uL' },
      { value: 12.5, unit: 'g/dL' },
    ]);
  });

  it("bases an order on its parent named by OBR-29 (before ORC-8), a ServiceRequest known by the parent's numbers", () => {
    const orders = all<ServiceRequest>(convert('ORM-O01-01.hl7'), 'ServiceRequest'); // OBR-29 ^FAI-29
    const parent = orders.find((o) => o.identifier?.some((i) => i.value === 'FAI-29'))!;
    expect(parent).toMatchObject({ status: 'unknown', identifier: [{ value: 'FAI-29', type: { coding: [{ code: 'FILL' }] } }] });
    expect(orders.find((o) => o !== parent)!.basedOn).toEqual([{ reference: `ServiceRequest/${parent.id}` }]);
    const both = convertMessage(
      parseMessage(
        'MSH|^~\\&|A|B|C|D|20240101||ORM^O01|1|P|2.5\rPID|1||X1\rORC|NW|P1||||||ORC8P^ORC8F\rOBR|1|P1||24725-4^CT Head^LN|||||||||||||||||||||||||OBR29P^OBR29F\r',
      ),
    ).bundle;
    const child = all<ServiceRequest>(both, 'ServiceRequest').find((o) => o.basedOn)!;
    const named = all<ServiceRequest>(both, 'ServiceRequest').find((o) => `ServiceRequest/${o.id}` === child.basedOn![0]!.reference)!;
    expect([child.basedOn!.length, named.identifier!.map((i) => i.value)]).toEqual([1, ['OBR29P', 'OBR29F']]);
  });

  it('reads every OBR of a referral (REF) as a result, with or without a result status (OBR-25)', () => {
    const b = convertMessage(
      parseMessage('MSH|^~\\&|A|B|C|D|20240101||REF^I12|1|P|2.5\rRF1|P\rPID|1||X1\rOBR||P9|F9|SCAN^Scan Slide^L\rOBX|1|ST|TXT^Finding^L||seen||||||F\r'),
    ).bundle;
    const [report] = all<DiagnosticReport>(b, 'DiagnosticReport');
    expect(report).toMatchObject({ code: { coding: [{ code: 'SCAN' }] }, result: [{ reference: `Observation/${all<Observation>(b, 'Observation')[0]!.id}` }] });
    expect(r4Errors(b)).toEqual([]);
  });

  it('refuses a message type it does not map', () => {
    expect(() => convertMessage(parseMessage('MSH|^~\\&|A|B|C|D|20240101||ACK^A01|1|P|2.5\rMSA|AA|1\r'))).toThrow(UnsupportedMessageError);
  });
});
