import type { Address, ContactPoint, Coverage, Encounter, HumanName, Identifier, Organization, Patient, RelatedPerson } from '@medplum/fhirtypes';
import { address, clean, codeableConcept, contactPoint, date, humanName, identifier, tableConcept } from './datatypes';
import type { Ctx } from './context';
import type { Field, Seg } from './reader';
import { dischargedTo, visitDetails, visitParticipants } from './visit';
import { patientExtensions } from './patient-extensions';

/** PID-8, HL7 table 0001 → FHIR administrative gender. */
export const GENDER: Record<string, Patient['gender']> = { F: 'female', M: 'male', O: 'other', A: 'other', N: 'other', U: 'unknown' };

const MARITAL: Record<string, string> = { A: 'L', B: 'U', C: 'C', D: 'D', E: 'L', G: 'T', I: 'I', M: 'M', P: 'T', R: 'T', S: 'S', W: 'W' };

function typedId(value: string, type: string, system?: string): Identifier | undefined {
  return value.trim() ? clean<Identifier>({ value: value.trim(), system, type: tableConcept(type, '0203') }) : undefined;
}

/** What a patient identifier names across messages of a sender: its system and value. */
function patientKey(id: Identifier): string {
  return `patient|${id.system ?? ''}|${id.value}`;
}

/** PID (+ PD1) → Patient; sets the context's patient. */
export function patient(pid: Seg, ctx: Ctx, pd1?: Seg): Patient {
  const known = identifier(pid.reps(3)[0]) ?? identifier(pid.f(2));
  const p = ctx.once<Patient>(
    'Patient',
    known ? patientKey(known) : `PID|${pid.index}`,
    (id) => {
      const deceased = pid.v(30);
      const deathAt = ctx.dt(pid.v(29));
      const birthOrder = pid.v(25);
      return {
        resourceType: 'Patient',
        id,
        ...clean<Partial<Patient>>({
          identifier: [
            identifier(pid.f(2)),
            ...pid.reps(3).map(identifier),
            ...pid.reps(4).map(identifier),
            typedId(pid.v(19), 'SB', 'http://hl7.org/fhir/sid/us-ssn'),
            typedId(pid.f(20).c(1), 'DL'),
          ].filter((x): x is Identifier => !!x),
          name: [...pid.reps(5), ...pid.reps(9)].map((f) => humanName(f)).filter((x) => !!x),
          birthDate: date(pid.v(7)),
          gender: GENDER[pid.v(8).toUpperCase()],
          address: withCounty(
            pid
              .reps(11)
              .map(address)
              .filter((x) => !!x),
            pid.v(12),
          ),
          telecom: [
            ...pid.reps(13).map((f) => withUse(contactPoint(f), 'home')),
            ...pid.reps(14).map((f) => withUse(contactPoint(f), 'work')),
            ...pid.reps(40).map(contactPoint),
          ].filter((x) => !!x),
          maritalStatus: MARITAL[pid.v(16)]
            ? { coding: [{ code: MARITAL[pid.v(16)]!, system: 'http://terminology.hl7.org/CodeSystem/v3-MaritalStatus' }] }
            : codeableConcept(pid.reps(16)[0]),
          communication: pid
            .reps(15)
            .map((f) => codeableConcept(f))
            .filter((x) => !!x)
            .map((language) => ({ language: language! })),
          deceasedDateTime: deathAt,
          deceasedBoolean: !deathAt && (deceased === 'Y' || deceased === 'N') ? deceased === 'Y' : undefined,
          multipleBirthInteger: /^\d+$/.test(birthOrder) ? Number(birthOrder) : undefined,
          multipleBirthBoolean: !/^\d+$/.test(birthOrder) && (pid.v(24) === 'Y' || pid.v(24) === 'N') ? pid.v(24) === 'Y' : undefined,
          generalPractitioner: pd1
            ? pd1
                .reps(4)
                .map((f) => ctx.practitioner(f))
                .filter((x) => !!x)
            : [],
          extension: patientExtensions(pid),
        }),
      };
    },
    !!known,
  );
  ctx.patient = ctx.ref(p);
  ctx.patientResource = p;
  return p;
}

/**
 * NK1-7 contact roles (HL7 table 0131) and NK1-3 relationships that make an NK1 a contact of the patient (an employer, an
 * agency…) rather than a related person.
 */
const CONTACT_ROLES = new Set(['E', 'F', 'I', 'S']);
const CONTACT_RELATIONSHIPS = new Set(['EMR', 'CGV']);

/**
 * NK1 → a contact of the patient (Patient.contact), and, unless it is an employer, agency or the like, a
 * RelatedPerson of the context's patient too (as the FHIR-Converter templates and the v2-to-FHIR IG map it).
 */
export function relatedPerson(nk1: Seg, ctx: Ctx): void {
  if (!ctx.patient) return;
  const contactOnly = CONTACT_ROLES.has(nk1.v(7).toUpperCase()) || CONTACT_RELATIONSHIPS.has(nk1.v(3).toUpperCase());
  if (ctx.patientResource) {
    const contact = clean({
      name: humanName(nk1.reps(2)[0]),
      relationship: [codeableConcept(nk1.f(7)), codeableConcept(nk1.f(3))].filter((x) => !!x),
      telecom: [...nk1.reps(5).map((f) => withUse(contactPoint(f), 'home')), ...nk1.reps(6).map((f) => withUse(contactPoint(f), 'work'))].filter((x) => !!x),
      address: address(nk1.reps(4)[0]),
      gender: GENDER[nk1.v(15).toUpperCase()],
      period: clean({ start: date(nk1.v(8)), end: date(nk1.v(9)) }),
    });
    if (contact) (ctx.patientResource.contact ??= []).push(contact as NonNullable<Patient['contact']>[number]);
  }
  if (contactOnly) return;
  const patientRef = ctx.patient;
  ctx.once<RelatedPerson>('RelatedPerson', `NK1|${nk1.index}`, (id) => ({
    resourceType: 'RelatedPerson',
    id,
    patient: patientRef,
    ...clean<Partial<RelatedPerson>>({
      // NK1-12 the contact's own identifier, NK1-33 their identifiers, NK1-37 their social security number
      identifier: [identifier(nk1.f(12)), ...nk1.reps(33).map(identifier), typedId(nk1.v(37), 'SS', 'http://hl7.org/fhir/sid/us-ssn')].filter((x) => !!x),
      name: [...nk1.reps(2), ...nk1.reps(30)].map((f) => humanName(f)).filter((x) => !!x),
      relationship: [codeableConcept(nk1.f(3)), codeableConcept(nk1.f(7))]
        .filter((x) => !!x)
        .map((c) => (c!.coding ? { ...c, coding: c!.coding.map((k) => ({ ...k, system: k.system ?? 'http://terminology.hl7.org/CodeSystem/v2-0063' })) } : c!)),
      address: nk1
        .reps(4)
        .map(address)
        .filter((x) => !!x),
      telecom: [...nk1.reps(5), ...nk1.reps(6), ...nk1.reps(40)].map(contactPoint).filter((x) => !!x),
      gender: GENDER[nk1.v(15).toUpperCase()],
      birthDate: date(nk1.v(16)),
      period: clean({ start: date(nk1.v(8)), end: date(nk1.v(9)) }),
    }),
  }));
}

/**
 * IN1 → Coverage of the context's patient, with the insurer as an Organization (and the insured, unless IN1-17
 * says it is the patient (SEL), as a RelatedPerson, as the HL7 v2-to-FHIR mapping does).
 */
export function coverage(in1: Seg, ctx: Ctx): Coverage | undefined {
  if (!ctx.patient) return undefined;
  const beneficiary = ctx.patient;
  const payerName = in1.f(4).c(1).trim();
  const payerIds = in1
    .reps(3)
    .map(identifier)
    .filter((x) => !!x);
  const payer = ctx.once<Organization>(
    'Organization',
    `IN1|${payerIds[0]?.value ?? (payerName || in1.index)}`,
    (id) => ({
      resourceType: 'Organization',
      id,
      ...clean<Partial<Organization>>({
        identifier: payerIds,
        name: payerName || in1.f(2).c(2).trim() || undefined,
        address: in1
          .reps(5)
          .map(address)
          .filter((x) => !!x),
      }),
    }),
    payerIds.length > 0,
  );
  const rel = in1.v(17).toUpperCase();
  let subscriber = beneficiary;
  if (rel !== 'SEL') {
    // the same insured on several IN1 (one per plan) is one person
    const insured = humanName(in1.reps(16)[0]);
    const key = insured ? `person|${insured.family ?? ''}|${insured.given?.[0] ?? ''}` : `IN1|${in1.index}`;
    const rp = ctx.once<RelatedPerson>('RelatedPerson', key, (id) => ({
      resourceType: 'RelatedPerson',
      id,
      patient: beneficiary,
      ...clean<Partial<RelatedPerson>>({
        name: in1
          .reps(16)
          .map((f) => humanName(f))
          .filter((x) => !!x),
        relationship: [codeableConcept(in1.f(17))].filter((x) => !!x),
        birthDate: date(in1.v(18)),
        address: in1
          .reps(19)
          .map(address)
          .filter((x) => !!x),
        gender: GENDER[in1.v(43).toUpperCase()],
      }),
    }));
    subscriber = ctx.ref(rp);
  } else if (rel === 'SEL' && ctx.patientResource) {
    // the insured is the patient: what IN1 says of the insured belongs to the Patient
    addTo(
      ctx.patientResource,
      in1.reps(16).map((f) => humanName(f)),
      in1.reps(49).map(identifier),
    );
    addPersonData(ctx.patientResource, { birthDate: in1.v(18), gender: in1.v(43), addresses: in1.reps(19) });
  }
  return ctx.once<Coverage>('Coverage', `IN1|${in1.index}`, (id) => ({
    resourceType: 'Coverage',
    id,
    status: 'active',
    beneficiary,
    payor: [ctx.ref(payer)],
    ...clean<Partial<Coverage>>({
      identifier: [typedId(in1.v(36), 'MB')].filter((x) => !!x),
      subscriber,
      subscriberId: in1.v(49) || undefined,
      relationship: rel
        ? {
            coding: [
              {
                code: rel === 'SEL' ? 'self' : rel === 'SPO' ? 'spouse' : rel === 'CHD' ? 'child' : 'other',
                system: 'http://terminology.hl7.org/CodeSystem/subscriber-relationship',
              },
            ],
          }
        : undefined,
      type: codeableConcept(in1.f(15)),
      period: clean({ start: date(in1.v(12)), end: date(in1.v(13)) }),
      class: in1.v(8)
        ? [
            {
              type: { coding: [{ code: 'group', system: 'http://terminology.hl7.org/CodeSystem/coverage-class' }] },
              value: in1.v(8),
              name: in1.v(9) || undefined,
            },
          ]
        : [],
    }),
  }));
}

/** Adds names and identifiers to a Patient (those it already has are not repeated). */
export function addTo(p: Patient, names: (HumanName | undefined)[], ids: (Identifier | undefined)[]): void {
  const seen = new Set([...(p.name ?? []), ...(p.identifier ?? [])].map((x) => JSON.stringify(x)));
  for (const n of names) if (n && !seen.has(JSON.stringify(n))) (p.name ??= []).push(n);
  for (const i of ids) if (i && !seen.has(JSON.stringify(i))) (p.identifier ??= []).push(i);
}

/**
 * What a segment about the insured or the guarantor says of the patient when that person is the patient: the birth
 * date and gender where PID gave none, and their addresses and phones (home and work uses where the XTN has none).
 */
function addPersonData(p: Patient, d: { birthDate?: string; gender?: string; addresses?: Field[]; home?: Field[]; work?: Field[] }): void {
  p.birthDate ??= date(d.birthDate ?? '');
  p.gender ??= GENDER[(d.gender ?? '').toUpperCase()];
  const seen = new Set([...(p.address ?? []), ...(p.telecom ?? [])].map((x) => JSON.stringify(x)));
  const add = <T>(list: T[] | undefined, x: T | undefined): T[] | undefined => {
    if (!x || seen.has(JSON.stringify(x))) return list;
    seen.add(JSON.stringify(x));
    return [...(list ?? []), x];
  };
  for (const f of d.addresses ?? []) p.address = add(p.address, address(f));
  const uses: [Field[] | undefined, 'home' | 'work'][] = [
    [d.home, 'home'],
    [d.work, 'work'],
  ];
  for (const [fields, use] of uses) for (const f of fields ?? []) p.telecom = add(p.telecom, withUse(contactPoint(f), use));
}

/** PID-12 county code: the district of the one address, when it has none. */
function withCounty(list: Address[], county: string): Address[] {
  return list.length === 1 && county && !list[0]!.district ? [{ ...list[0]!, district: county }] : list;
}

function withUse(c: ContactPoint | undefined, use: ContactPoint['use']): ContactPoint | undefined {
  return c && !c.use ? { ...c, use } : c;
}

/** The mother (PID-21 mother's identifier) as a RelatedPerson, when the message has no NK1. */
export function mother(pid: Seg, ctx: Ctx): void {
  if (!ctx.patient || !pid.reps(21).length) return;
  const patientRef = ctx.patient;
  ctx.once<RelatedPerson>('RelatedPerson', `PID-21|${pid.index}`, (id) => ({
    resourceType: 'RelatedPerson',
    id,
    patient: patientRef,
    relationship: [{ coding: [{ code: 'MTH', display: 'mother', system: 'http://terminology.hl7.org/CodeSystem/v3-RoleCode' }] }],
    ...clean<Partial<RelatedPerson>>({
      identifier: pid
        .reps(21)
        .map(identifier)
        .filter((x) => !!x),
    }),
  }));
}

/**
 * GT1 → the guarantor: when the guarantor is an organization (GT1-21) there is no person; else when GT1-11 says
 * the patient is their own guarantor (SEL), GT1's name and identifiers are the patient's; else a RelatedPerson.
 */
export function guarantor(gt1: Seg, ctx: Ctx): void {
  if (!ctx.patient) return;
  // an organization as guarantor (GT1-21) is no person, whatever GT1-11 says: its name and numbers are not the patient's
  if (gt1.reps(21).length) return;
  const rel = gt1.v(11).toUpperCase();
  if (rel === 'SEL') {
    if (!ctx.patientResource) return;
    const ids = [...gt1.reps(2).map(identifier), typedId(gt1.v(12), 'SB', 'http://hl7.org/fhir/sid/us-ssn'), ...gt1.reps(19).map(identifier)];
    addTo(
      ctx.patientResource,
      gt1.reps(3).map((f) => humanName(f)),
      ids,
    );
    addPersonData(ctx.patientResource, { birthDate: gt1.v(8), gender: gt1.v(9), addresses: gt1.reps(5), home: gt1.reps(6), work: gt1.reps(7) });
    return;
  }
  const patientRef = ctx.patient;
  ctx.once<RelatedPerson>('RelatedPerson', `GT1|${gt1.index}`, (id) => ({
    resourceType: 'RelatedPerson',
    id,
    patient: patientRef,
    ...clean<Partial<RelatedPerson>>({
      identifier: [...gt1.reps(2).map(identifier), ...gt1.reps(19).map(identifier)].filter((x) => !!x),
      name: gt1
        .reps(3)
        .map((f) => humanName(f))
        .filter((x) => !!x),
      address: gt1
        .reps(5)
        .map(address)
        .filter((x) => !!x),
      telecom: [...gt1.reps(6), ...gt1.reps(7)].map(contactPoint).filter((x) => !!x),
      birthDate: date(gt1.v(8)),
      gender: GENDER[gt1.v(9).toUpperCase()],
      relationship: [codeableConcept(gt1.f(11))].filter((x) => !!x),
    }),
  }));
}

/**
 * IN2: the patient's Medicare (IN2-6), Medicaid (IN2-8), military (IN2-10) and member (IN2-61) numbers, and IN2-7
 * name; the insured's identifiers (IN2-1, IN2-2 social security number) and phones (IN2-63) are the patient's when
 * the IN1 it completes says the insured is the patient (IN1-17 SEL), else the insured person's (the IN1's RelatedPerson).
 */
export function insuranceDetails(in2: Seg, ctx: Ctx, insured?: { in1: Seg; coverage: Coverage }): void {
  if (!ctx.patientResource) return;
  const ids = [...in2.reps(1).map(identifier), typedId(in2.v(2), 'SS', 'http://hl7.org/fhir/sid/us-ssn')];
  if (insured?.in1.v(17).toUpperCase() === 'SEL') {
    addTo(ctx.patientResource, [], ids);
    addPersonData(ctx.patientResource, { home: in2.reps(63) });
  } else if (insured?.coverage.subscriber?.reference?.startsWith('RelatedPerson/')) {
    const ref = insured.coverage.subscriber.reference;
    const person = ctx.resources.find((r) => `RelatedPerson/${r.id}` === ref) as RelatedPerson | undefined;
    if (person) {
      const seen = new Set((person.identifier ?? []).map((x) => JSON.stringify(x)));
      for (const i of ids) if (i && !seen.has(JSON.stringify(i))) (person.identifier ??= []).push(i);
      for (const f of in2.reps(63)) {
        const c = contactPoint(f);
        if (c) (person.telecom ??= []).push(c);
      }
    }
  }
  addTo(
    ctx.patientResource,
    [humanName(in2.f(7))],
    [typedId(in2.v(6), 'MC', 'http://hl7.org/fhir/sid/us-medicare'), typedId(in2.v(8), 'MA'), typedId(in2.v(10), 'MI'), ...in2.reps(61).map(identifier)],
  );
}

/** DB1 of the patient (DB1-2 PT): the disability identifiers (DB1-3) are the patient's. */
export function disability(db1: Seg, ctx: Ctx): void {
  if (ctx.patientResource && db1.v(2).toUpperCase() === 'PT') addTo(ctx.patientResource, [], db1.reps(3).map(identifier));
}
