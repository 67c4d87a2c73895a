import type { Condition, Observation, ServiceRequest } from '@medplum/fhirtypes';
import { clean, codeableConcept, entityIdentifier, tableConcept } from './datatypes';
import type { Ctx } from './context';
import type { Seg } from './reader';

/** Local codes for facts HL7 v2 states in fields (PDA, ACC) that no standard code system names. */
const LOCAL_CODES = 'http://example.com/v2-to-fhir-converter/CodeSystem/observation-code';

function yesNo(code: string): Observation['valueCodeableConcept'] | undefined {
  const c = code.trim().toUpperCase();
  if (c !== 'Y' && c !== 'N') return undefined;
  return { coding: [{ code: c, display: c === 'Y' ? 'Yes' : 'No', system: 'http://terminology.hl7.org/CodeSystem/v2-0136' }] };
}

function fieldObservation(ctx: Ctx, key: string, code: string, display: string, extra: Partial<Observation>): void {
  if (!ctx.patient) return;
  const subject = ctx.patient;
  ctx.once<Observation>('Observation', key, (id) => ({
    resourceType: 'Observation',
    id,
    status: 'final',
    code: { coding: [{ code, display, system: LOCAL_CODES }] },
    subject,
    ...extra,
  }));
}

/** PDA (patient death and autopsy) → the cause of death as a Condition, and death certificate, autopsy and coroner indicators as Observations. */
export function deathAndAutopsy(pda: Seg, ctx: Ctx): void {
  if (!ctx.patient) return;
  const subject = ctx.patient;
  const cause = codeableConcept(pda.f(1));
  if (cause) {
    ctx.once<Condition>('Condition', `PDA|${pda.index}`, (id) => ({
      resourceType: 'Condition',
      id,
      subject,
      code: cause,
      ...clean<Partial<Condition>>({ onsetDateTime: ctx.dt(pda.v(4)) }),
    }));
  }
  const indicators: [number, string, string][] = [
    [3, 'death-certificate', 'Death Certificate'],
    [6, 'autopsy', 'Autopsy'],
    [9, 'coroner', 'Coroner'],
  ];
  for (const [field, code, display] of indicators) {
    const v = yesNo(pda.v(field));
    if (v) fieldObservation(ctx, `PDA-${field}|${pda.index}`, code, display, { valueCodeableConcept: v });
  }
}

/** ACC (accident) → an Observation of the injury incident: ACC-8 description, ACC-1 when, ACC-13 its identifier. */
export function accident(acc: Seg, ctx: Ctx): void {
  const description = acc.f(8).text();
  if (!description && !acc.v(1)) return;
  fieldObservation(ctx, `ACC|${acc.index}`, 'injury-incident', 'Injury Incident Description Narrative', {
    ...clean<Partial<Observation>>({
      identifier: [entityIdentifier(acc.f(13))].filter((x) => !!x),
      valueString: description || undefined,
      effectiveDateTime: ctx.dt(acc.v(1)),
    }),
  });
}

/** RF1-1, HL7 table 0283 → ServiceRequest.status. */
const REFERRAL_STATUS: Record<string, ServiceRequest['status']> = { A: 'active', P: 'on-hold', R: 'revoked', E: 'revoked' };

/**
 * RF1 (referral) → a ServiceRequest of category referral, with RF1-3's referral type (table 0281: Lab, Rad, Med…)
 * as a second category. Not `orderDetail`: R4's prr-1 allows orderDetail only beside a `code`, which RF1 lacks.
 */
export function referral(rf1: Seg, ctx: Ctx): void {
  if (!ctx.patient) return;
  const subject = ctx.patient;
  ctx.once<ServiceRequest>('ServiceRequest', `RF1|${rf1.index}`, (id) => ({
    resourceType: 'ServiceRequest',
    id,
    status: REFERRAL_STATUS[rf1.v(1).toUpperCase()] ?? 'unknown',
    intent: 'order',
    subject,
    category: [{ coding: [{ code: '3457005', display: 'Patient referral', system: 'http://snomed.info/sct' }] }, tableConcept(rf1.v(3), '0281')].filter(
      (x) => !!x,
    ),
    ...clean<Partial<ServiceRequest>>({
      identifier: [entityIdentifier(rf1.f(6)), entityIdentifier(rf1.f(11))].filter((x) => !!x),
      priority: ({ S: 'stat', A: 'asap', R: 'routine' } as const)[rf1.v(2).toUpperCase() as 'S'],
      encounter: ctx.encounter,
      authoredOn: ctx.dt(rf1.v(9)),
      occurrencePeriod: clean({ end: ctx.dt(rf1.v(8)) }),
      reasonCode: rf1
        .reps(10)
        .map(codeableConcept)
        .filter((x) => !!x),
    }),
  }));
}
