import type { Encounter, Organization } from '@medplum/fhirtypes';
import { clean, codeableConcept, identifier, tableConcept } from './datatypes';
import type { Ctx } from './context';
import type { Seg } from './reader';
import { dischargedTo, visitDetails, visitParticipants } from './visit';

/** PV1-2, HL7 table 0004 → Encounter.class (v3 ActCode; codes v3 lacks stay in v2-0004). */
export const ENCOUNTER_CLASS: Record<string, { code: string; display: string; system: string }> = {
  E: { code: 'EMER', display: 'emergency', system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode' },
  I: { code: 'IMP', display: 'inpatient encounter', system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode' },
  O: { code: 'AMB', display: 'ambulatory', system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode' },
  P: { code: 'PRENC', display: 'pre-admission', system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode' },
  B: { code: 'OBS', display: 'obstetrics', system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode' },
  C: { code: 'PBILLACCT', display: 'patient billing account', system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode' },
  N: { code: 'N', display: 'Not Applicable', system: 'http://terminology.hl7.org/CodeSystem/v2-0004' },
  R: { code: 'R', display: 'Recurring patient', system: 'http://terminology.hl7.org/CodeSystem/v2-0004' },
  U: { code: 'U', display: 'Unknown', system: 'http://terminology.hl7.org/CodeSystem/v2-0004' },
};

const PARTICIPATION = 'http://terminology.hl7.org/CodeSystem/v3-ParticipationType';

/** PV1 (+ PV2) → Encounter of the context's patient; sets the context's encounter. */
export function encounter(pv1: Seg, ctx: Ctx, pv2?: Seg): void {
  const cls = ENCOUNTER_CLASS[pv1.v(2).toUpperCase()];
  const start = ctx.dt(pv1.v(44));
  const end = ctx.dt(pv1.v(45));
  const participants: [number, string, string][] = [
    [7, 'ATND', 'attender'],
    [8, 'REF', 'referrer'],
    [9, 'CON', 'consultant'],
    [17, 'ADM', 'admitter'],
  ];
  const visit = identifier(pv1.f(19));
  const kind = pv1.v(2);
  const status: Encounter['status'] = end
    ? 'finished'
    : (({ P: 'planned', N: 'cancelled', U: 'unknown', '': 'unknown' } as const)[kind as 'P'] ?? 'in-progress');
  const e = ctx.once<Encounter>(
    'Encounter',
    visit ? `visit|${visit.system ?? ''}|${visit.value}` : `PV1|${pv1.index}`,
    (id) => ({
      resourceType: 'Encounter',
      id,
      status,
      class: cls ?? { code: 'UNK', display: 'unknown', system: 'http://terminology.hl7.org/CodeSystem/v3-NullFlavor' },
      ...clean<Partial<Encounter>>({
        identifier: [identifier(pv1.f(19)), identifier(pv1.f(50))].filter((x) => !!x).map((x) => ({ ...x!, type: x!.type ?? tableConcept('VN', '0203') })),
        type: [tableConcept(pv1.v(4), '0007')].filter((x) => !!x),
        serviceType: tableConcept(pv1.v(10), '0069'),
        subject: ctx.patient,
        participant: [
          ...participants.flatMap(([n, code, display]) =>
            pv1
              .reps(n)
              .map((f) => ctx.practitioner(f))
              .filter((x) => !!x)
              .map((individual) => ({ type: [{ coding: [{ code, display, system: PARTICIPATION }] }], individual })),
          ),
          ...visitParticipants(pv1, pv2, ctx),
        ],
        period: clean({ start, end }),
        reasonCode: pv2 ? [codeableConcept(pv2.f(3))].filter((x) => !!x) : [],
        hospitalization: clean({
          preAdmissionIdentifier: identifier(pv1.f(5)),
          admitSource: tableConcept(pv1.v(14), '0023'),
          reAdmission: tableConcept(pv1.v(13), '0092'),
          dischargeDisposition: tableConcept(pv1.v(36), '0112'),
          dietPreference: [codeableConcept(pv1.f(38))].filter((x) => !!x),
          destination: dischargedTo(pv1, ctx),
        }),
        ...visitDetails(pv1, pv2, ctx, status),
      }),
    }),
    !!visit,
  );
  ctx.encounter = ctx.ref(e);
  ctx.encounterResource = e;
  if (ctx.pendingDiagnoses.length) (e.diagnosis ??= []).push(...ctx.pendingDiagnoses.splice(0));
}
