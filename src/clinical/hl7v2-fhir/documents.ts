import type { Appointment, AppointmentParticipant, DocumentReference, ServiceRequest } from '@medplum/fhirtypes';
import { clean, codeableConcept, entityIdentifier } from './datatypes';
import type { Ctx } from './context';
import type { Seg } from './reader';
import { location } from './locations';

/** TXA-17, HL7 table 0271 → DocumentReference.docStatus. */
const DOC_STATUS: Record<string, DocumentReference['docStatus']> = {
  AU: 'final',
  LA: 'final',
  DI: 'preliminary',
  DO: 'preliminary',
  IN: 'preliminary',
  IP: 'preliminary',
  PA: 'preliminary',
};
/** TXA-19, HL7 table 0275 → DocumentReference.status. */
const DOC_AVAILABILITY: Record<string, DocumentReference['status']> = { AV: 'current', CA: 'entered-in-error', OB: 'superseded', UN: 'current' };
const MIME: Record<string, string> = {
  TX: 'text/plain',
  FT: 'text/plain',
  ST: 'text/plain',
  TEXT: 'text/plain',
  HTML: 'text/html',
  XML: 'application/xml',
  PDF: 'application/pdf',
  RTF: 'text/rtf',
  AP: 'application/octet-stream',
};

/** MDM events of an original document (relates to none) and of a replacement (replaces TXA-13); the rest append to it. */
const ORIGINAL = new Set(['T01', 'T02']);
const REPLACING = new Set(['T09', 'T10']);

function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

/**
 * TXA (with the text of the OBX that follow it) → DocumentReference: TXA-12 the document's number, TXA-16 its file
 * name; TXA-13, the document it adds to (an addendum, T05/T06) or replaces (T09/T10), is what it relates to, and the
 * order numbers TXA-14/15 the order it is related to (by identifier), not identifiers of the document.
 */
export function documentReference(txa: Seg, ctx: Ctx, body: Seg[], trigger = ''): DocumentReference | undefined {
  if (!ctx.patient) return undefined;
  const subject = ctx.patient;
  const text = body
    .filter((o) => ['TX', 'FT', 'ST'].includes(o.v(2).toUpperCase()))
    .flatMap((o) => o.reps(5).map((f) => f.text()))
    .join('\n');
  const contentType = MIME[txa.v(3).toUpperCase()] ?? 'text/plain';
  const parent = entityIdentifier(txa.f(13));
  const orders = [entityIdentifier(txa.f(14), 'PLAC'), entityIdentifier(txa.f(15), 'FILL')].filter((x) => !!x);
  return ctx.once<DocumentReference>('DocumentReference', `TXA|${txa.index}`, (id) => ({
    resourceType: 'DocumentReference',
    id,
    status: DOC_AVAILABILITY[txa.v(19).toUpperCase()] ?? 'current',
    subject,
    content: [{ attachment: text ? { contentType, data: base64(text) } : { contentType } }],
    ...clean<Partial<DocumentReference>>({
      masterIdentifier: entityIdentifier(txa.f(12)),
      identifier: txa.v(16).trim() ? [{ value: txa.v(16).trim(), type: { text: 'Document unique file name' } }] : [],
      relatesTo: parent && !ORIGINAL.has(trigger) ? [{ code: REPLACING.has(trigger) ? 'replaces' : 'appends', target: { identifier: parent } }] : [],
      docStatus: DOC_STATUS[txa.v(17).toUpperCase()],
      type: codeableConcept(txa.f(2)),
      date: ctx.instant(txa.v(4)) ?? ctx.instant(txa.v(6)),
      author: [...txa.reps(5), ...txa.reps(9)].map((f) => ctx.practitioner(f)).filter((x) => !!x),
      authenticator: ctx.practitioner(txa.reps(10)[0]),
      securityLabel: [codeableConcept(txa.f(18))].filter((x) => !!x),
      context: clean({
        encounter: ctx.encounter ? [ctx.encounter] : [],
        related: orders.map((identifier) => ({ type: 'ServiceRequest', identifier })),
      }),
    }),
  }));
}

/** SCH-25 filler status (HL7 table 0278) → Appointment.status. */
const APPOINTMENT_STATUS: Record<string, Appointment['status']> = {
  PENDING: 'pending',
  WAITLIST: 'waitlist',
  BOOKED: 'booked',
  STARTED: 'checked-in',
  COMPLETE: 'fulfilled',
  CANCELLED: 'cancelled',
  DC: 'cancelled',
  DELETED: 'entered-in-error',
  BLOCKED: 'waitlist',
  OVERBOOK: 'waitlist',
  NOSHOW: 'noshow',
};
/** Without SCH-25, the trigger event says it (S15 cancel, S17 delete, S26 no-show). */
const TRIGGER_STATUS: Record<string, Appointment['status']> = { S15: 'cancelled', S16: 'cancelled', S17: 'entered-in-error', S26: 'noshow' };

function addMinutes(dt: string, minutes: number): string | undefined {
  const m = /^(.*T\d{2}:\d{2}:\d{2})(\.\d+)?([+-]\d{2}:\d{2}|Z)$/.exec(dt);
  if (!m) return undefined;
  const tz = m[3]!;
  const offset = tz === 'Z' ? 0 : (tz[0] === '-' ? -1 : 1) * (Number(tz.slice(1, 3)) * 60 + Number(tz.slice(4, 6)));
  const t = Date.parse(`${m[1]}${tz}`) + (minutes + offset) * 60_000;
  return `${new Date(t).toISOString().slice(0, 19)}${tz}`;
}

/** SCH (+ TQ1, AIS, AIG, AIL, AIP) → Appointment with the patient as a participant. */
export function appointment(sch: Seg, ctx: Ctx, trigger: string, resources: Seg[], tq1: Seg | undefined): Appointment | undefined {
  if (!ctx.patient) return undefined;
  const participant: AppointmentParticipant[] = [{ actor: ctx.patient, status: 'accepted' }];
  for (const r of resources) {
    const actor = r.id === 'AIP' ? ctx.practitioner(r.reps(3)[0]) : r.id === 'AIL' ? location(ctx, r.f(3)) : undefined;
    if (actor) participant.push({ actor, status: 'accepted', ...clean({ type: [codeableConcept(r.f(4))].filter((x) => !!x) }) });
  }
  const timing = sch.f(11);
  // TQ1 (v2.5 on) before SCH-11, which it replaces
  let start = ctx.instant(tq1?.f(7).c(1) ?? '') ?? ctx.instant(timing.c(4)) ?? ctx.instant(resources.find((r) => r.id === 'AIS')?.v(4) ?? '');
  let end = ctx.instant(tq1?.f(8).c(1) ?? '') ?? ctx.instant(timing.c(5));
  const duration = Number(sch.v(9) || timing.c(3).replace(/\D/g, '')) || undefined;
  if (start && !end && duration && /^(MIN|M|)$/i.test(sch.v(10))) end = addMinutes(start, duration);
  // each service asked for (AIS) is what the appointment is for: a ServiceRequest
  const subject = ctx.patient;
  const basedOn = resources
    .filter((r) => r.id === 'AIS' && codeableConcept(r.f(3)))
    .map((r) =>
      ctx.ref(
        ctx.once<ServiceRequest>('ServiceRequest', `AIS|${r.index}`, (id) => ({
          resourceType: 'ServiceRequest',
          id,
          status: 'active',
          intent: 'order',
          subject,
          code: codeableConcept(r.f(3)),
          ...clean<Partial<ServiceRequest>>({ encounter: ctx.encounter, occurrenceDateTime: ctx.dt(r.v(4)) }),
        })),
      ),
    );
  let status = APPOINTMENT_STATUS[sch.f(25).c(1).toUpperCase()] ?? TRIGGER_STATUS[trigger] ?? 'booked';
  if (!start || !end) {
    // FHIR: start and end come together, and only proposed or cancelled appointments may lack them
    start = end = undefined;
    if (status !== 'cancelled') status = 'proposed';
  }
  return ctx.once<Appointment>('Appointment', `SCH|${sch.index}`, (id) => ({
    resourceType: 'Appointment',
    id,
    status,
    participant,
    ...clean<Partial<Appointment>>({
      identifier: [entityIdentifier(sch.f(1), 'PLAC'), entityIdentifier(sch.f(2), 'FILL')].filter((x) => !!x),
      basedOn,
      appointmentType: codeableConcept(sch.f(8)),
      reasonCode: [codeableConcept(sch.f(7))].filter((x) => !!x),
      serviceType: resources
        .filter((r) => r.id === 'AIS')
        .map((r) => codeableConcept(r.f(3)))
        .filter((x) => !!x),
      start,
      end,
      minutesDuration: duration,
      description: sch.f(7).c(2) || undefined,
    }),
  }));
}
