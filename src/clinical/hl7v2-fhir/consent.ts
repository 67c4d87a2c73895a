import type { Consent, Practitioner, RelatedPerson } from '@medplum/fhirtypes';
import { clean, codeableConcept, entityIdentifier, humanName, tableConcept } from './datatypes';
import type { Ctx, Ref } from './context';
import { addTo } from './patient';
import type { Seg } from './reader';

/** CON-11, HL7 table 0498 (consent status) → Consent.status. */
const STATUS: Record<string, Consent['status']> = { A: 'active', B: 'active', L: 'active', P: 'proposed', R: 'rejected', X: 'inactive' };

/** CON-2 consent types (table 0496) about the release of information: a privacy consent; the others are about treatment. */
const PRIVACY_TYPES = new Set(['001', '003', '092']);

/**
 * The one who gave the consent, CON-24 (XPN), by CON-25 (table 0548, relationship to the subject): 1 self → the
 * patient (whose names it adds to), 2–5 (parent, next of kin, power of attorney, conservator) → a RelatedPerson,
 * 6–7 (emergency or professional practitioner) → a Practitioner.
 */
function consenter(con: Seg, at: number, ctx: Ctx): Ref | undefined {
  const name = humanName(con.reps(24)[at]);
  const relation = con.reps(25)[at]?.c(1).trim() ?? '';
  if (!name || !ctx.patient) return undefined;
  const patient = ctx.patient;
  const nameKey = `${name.family ?? ''}|${name.given?.[0] ?? ''}`;
  if (relation === '1') {
    if (ctx.patientResource) addTo(ctx.patientResource, [name], []);
    return patient;
  }
  if (['2', '3', '4', '5'].includes(relation)) {
    const rp = ctx.once<RelatedPerson>('RelatedPerson', `person|${nameKey}`, (id) => ({
      resourceType: 'RelatedPerson',
      id,
      patient,
      name: [name],
      relationship: [tableConcept(relation, '0548')!],
    }));
    return ctx.ref(rp);
  }
  if (relation === '6' || relation === '7') {
    return ctx.ref(ctx.once<Practitioner>('Practitioner', JSON.stringify(name), (id) => ({ resourceType: 'Practitioner', id, name: [name] })));
  }
  return undefined;
}

/**
 * CON (consent) → Consent of the patient: CON-2 type (category, and the scope: privacy or treatment), CON-4 form
 * number, CON-5 and CON-6 the text consented to (the policy rule; without it there is no Consent), CON-11 status,
 * CON-13 decision date, and CON-24/25 who consented (the performer).
 */
export function consent(con: Seg, ctx: Ctx): void {
  if (!ctx.patient) return;
  const patient = ctx.patient;
  const performer = con
    .reps(24)
    .map((_, at) => consenter(con, at, ctx))
    .filter((x) => !!x);
  const rule = [con.reps(5)[0]?.text().trim(), con.reps(6)[0]?.text().trim()].filter(Boolean).join(' + ');
  if (!rule) return;
  const type = con.f(2).c(1).trim();
  const scope = PRIVACY_TYPES.has(type) ? { code: 'patient-privacy', display: 'Privacy Consent' } : { code: 'treatment', display: 'Treatment' };
  ctx.once<Consent>('Consent', `CON|${con.index}`, (id) => ({
    resourceType: 'Consent',
    id,
    status: STATUS[con.f(11).c(1).trim().toUpperCase()] ?? 'active',
    scope: { coding: [{ ...scope, system: 'http://terminology.hl7.org/CodeSystem/consentscope' }] },
    category: [codeableConcept(con.f(2)) ?? { coding: [{ code: '59284-0', display: 'Patient Consent', system: 'http://loinc.org' }] }],
    patient,
    policyRule: { text: rule },
    ...clean<Partial<Consent>>({
      identifier: [entityIdentifier(con.f(4))].filter((x) => !!x),
      dateTime: ctx.dt(con.v(13)),
      performer,
    }),
  }));
}
