import type { DiagnosticReport, Identifier, Immunization, Organization, Resource, ServiceRequest, Specimen } from '@medplum/fhirtypes';
import { clean, codeableConcept, date, entityIdentifier, identifier, quantity, systemUrl, tableConcept } from './datatypes';
import { location } from './locations';
import type { Ctx, Ref } from './context';
import type { Field, Seg } from './reader';

/** ORC-5, HL7 table 0038 → ServiceRequest.status; without it, ORC-1 (table 0119) decides. */
const ORDER_STATUS: Record<string, ServiceRequest['status']> = {
  A: 'active',
  CA: 'revoked',
  CM: 'completed',
  DC: 'revoked',
  ER: 'entered-in-error',
  HD: 'on-hold',
  IP: 'active',
  RP: 'revoked',
  SC: 'active',
};
const ORDER_CONTROL: Record<string, ServiceRequest['status']> = {
  NW: 'active',
  OK: 'active',
  SC: 'active',
  CA: 'revoked',
  CR: 'revoked',
  DC: 'revoked',
  OC: 'revoked',
  OD: 'revoked',
  HD: 'on-hold',
  OH: 'on-hold',
  RP: 'active',
  RE: 'completed',
  CM: 'completed',
};

/** OBR-25, HL7 table 0123 → DiagnosticReport.status. */
const REPORT_STATUS: Record<string, DiagnosticReport['status']> = {
  C: 'corrected',
  D: 'cancelled',
  F: 'final',
  I: 'registered',
  O: 'registered',
  P: 'preliminary',
  R: 'partial',
  S: 'partial',
  X: 'cancelled',
  W: 'entered-in-error',
  A: 'partial',
};

function orderIds(orc: Seg | undefined, obr: Seg | undefined): Identifier[] {
  const placer = obr?.f(2).empty === false ? obr.f(2) : orc?.f(2);
  const filler = obr?.f(3).empty === false ? obr.f(3) : orc?.f(3);
  return [entityIdentifier(placer, 'PLAC'), entityIdentifier(filler, 'FILL'), entityIdentifier(orc?.f(4).sub(1), 'PGN')].filter((x): x is Identifier => !!x);
}

/**
 * The parent order (EIP: placer ^ filler), OBR-29 else ORC-8: the order this one is part of, known by its numbers.
 */
function parentOrder(orc: Seg | undefined, ctx: Ctx, obr?: Seg): Ref | undefined {
  const field = obr && !obr.f(29).empty ? obr.f(29) : orc?.f(8);
  if (!ctx.patient || !field || field.empty) return undefined;
  const subject = ctx.patient;
  const ids = [entityIdentifier(field.sub(1), 'PLAC'), entityIdentifier(field.sub(2), 'FILL')].filter((x): x is Identifier => !!x);
  if (!ids.length) return undefined;
  const parent = ctx.once<ServiceRequest>('ServiceRequest', `parent|${ids.map((x) => x.value).join('|')}`, (id) => ({
    resourceType: 'ServiceRequest',
    id,
    status: 'unknown',
    intent: 'order',
    subject,
    identifier: ids,
  }));
  return ctx.ref(parent);
}

/** The parent orders (OBR-29, ORC-8) among `resources`, as `ServiceRequest/id`: orders known only by their numbers. */
export function parentOrders(resources: Resource[]): Set<string> {
  return new Set(resources.flatMap((r) => (r.resourceType === 'ServiceRequest' ? (r.basedOn ?? []).map((b) => b.reference ?? '') : [])));
}

/**
 * An ORC that follows its OBR (OUL^R22 and the like): its status, numbers and parent order complete the order the
 * OBR made, and its numbers the report of that OBR (the FHIR-Converter templates give a DiagnosticReport the
 * placer group number ORC-4 too, and ORC-2/ORC-3 where OBR-2/OBR-3 are empty).
 */
export function lateOrderControl(orc: Seg, order: ServiceRequest, ctx: Ctx, report?: DiagnosticReport): void {
  const status = ORDER_STATUS[orc.v(5)] ?? ORDER_CONTROL[orc.v(1)];
  if (status) order.status = status;
  for (const r of [order, report]) {
    if (!r) continue;
    // a number of a kind the OBR already gave (its placer or filler number) is not replaced
    const kinds = new Set((r.identifier ?? []).map((i) => i.type?.coding?.[0]?.code));
    const values = new Set((r.identifier ?? []).map((i) => i.value));
    for (const id of orderIds(orc, undefined)) if (!kinds.has(id.type?.coding?.[0]?.code) && !values.has(id.value)) (r.identifier ??= []).push(id);
  }
  // ORC-8 names the parent only where the OBR did not (OBR-29)
  const parent = order.basedOn?.length ? undefined : parentOrder(orc, ctx);
  if (parent) (order.basedOn ??= []).push(parent);
}

/** ORC and/or OBR → ServiceRequest of the context's patient. */
export function serviceRequest(orc: Seg | undefined, obr: Seg | undefined, ctx: Ctx, specimen?: Ref): ServiceRequest | undefined {
  if (!ctx.patient) return undefined;
  const subject = ctx.patient;
  const at = (obr ?? orc)!;
  const requester = ctx.practitioner(orc?.reps(12)[0]) ?? ctx.practitioner(obr?.reps(16)[0]);
  const parent = parentOrder(orc, ctx, obr);
  return ctx.once<ServiceRequest>('ServiceRequest', `${at.id}|${at.index}`, (id) => ({
    resourceType: 'ServiceRequest',
    id,
    status: ORDER_STATUS[orc?.v(5) ?? ''] ?? ORDER_CONTROL[orc?.v(1) ?? ''] ?? (obr ? 'active' : 'unknown'),
    intent: 'order',
    subject,
    ...clean<Partial<ServiceRequest>>({
      // OBR-53 alternate placer order number (CX)
      identifier: [...orderIds(orc, obr), identifier(obr?.f(53))].filter((x) => !!x),
      basedOn: parent ? [parent] : [],
      code: codeableConcept(obr?.f(4)),
      encounter: ctx.encounter,
      requester,
      authoredOn: ctx.dt(orc?.v(9) ?? '') ?? ctx.dt(obr?.v(6) ?? ''),
      occurrenceDateTime: ctx.dt(obr?.v(7) ?? ''),
      priority: ({ S: 'stat', A: 'asap', R: 'routine' } as const)[obr?.v(5) as 'S'],
      reasonCode: (obr?.reps(31) ?? []).map(codeableConcept).filter((x) => !!x),
      specimen: specimen ? [specimen] : [],
    }),
  }));
}

/** OBR → DiagnosticReport (results are added as their OBX are read). */
export function diagnosticReport(orc: Seg | undefined, obr: Seg, ctx: Ctx, basedOn?: Ref): DiagnosticReport | undefined {
  const code = codeableConcept(obr.f(4));
  if (!ctx.patient || !code) return undefined;
  const subject = ctx.patient;
  return ctx.once<DiagnosticReport>('DiagnosticReport', `OBR|${obr.index}`, (id) => ({
    resourceType: 'DiagnosticReport',
    id,
    status: REPORT_STATUS[obr.v(25).toUpperCase()] ?? 'unknown',
    code,
    subject,
    ...clean<Partial<DiagnosticReport>>({
      identifier: orderIds(orc, obr),
      basedOn: basedOn ? [basedOn] : [],
      encounter: ctx.encounter,
      category: [tableConcept(obr.v(24), '0074')].filter((x) => !!x),
      effectiveDateTime: ctx.dt(obr.v(7)),
      issued: ctx.instant(obr.v(22)),
      resultsInterpreter: obr
        .reps(32)
        .map((f) => ctx.practitioner(f.sub(1)))
        .filter((x) => !!x),
    }),
  }));
}

/** SPM → Specimen. */
export function specimen(spm: Seg, ctx: Ctx): Specimen | undefined {
  if (!ctx.patient) return undefined;
  const subject = ctx.patient;
  const ids = spm.f(2);
  return ctx.once<Specimen>('Specimen', `SPM|${spm.index}`, (id) => ({
    resourceType: 'Specimen',
    id,
    subject,
    ...clean<Partial<Specimen>>({
      identifier: [entityIdentifier(ids.sub(1), 'PGN'), entityIdentifier(ids.sub(2), 'FGN')].filter((x) => !!x),
      type: codeableConcept(spm.f(4)),
      receivedTime: ctx.dt(spm.v(18)),
      collection: clean({ collectedDateTime: ctx.dt(spm.f(17).c(1)), bodySite: codeableConcept(spm.f(8)), method: codeableConcept(spm.f(7)) }),
    }),
  }));
}

/** A vaccine's manufacturer (CWE, MVX code) → an Organization known by its code. */
function manufacturer(f: Field, ctx: Ctx): Ref | undefined {
  const code = f.c(1).trim();
  const name = f.c(2).trim() || code;
  if (!name) return undefined;
  const system = systemUrl(f.c(3)) ?? 'http://terminology.hl7.org/CodeSystem/MVX';
  const org = ctx.once<Organization>(
    'Organization',
    `manufacturer|${system}|${code || name}`,
    (id) => ({
      resourceType: 'Organization',
      id,
      name,
      ...(code ? { identifier: [{ system, value: code }] } : {}),
    }),
    true,
  );
  return ctx.ref(org);
}

/** XCN fields → Immunization performers with their function (HL7 table 0443). */
function performers(fields: Field[], code: string, display: string, ctx: Ctx): NonNullable<Immunization['performer']> {
  const fn = { coding: [{ code, display, system: 'http://terminology.hl7.org/CodeSystem/v2-0443' }] };
  return fields
    .map((f) => ctx.practitioner(f))
    .filter((x) => !!x)
    .map((actor) => ({ actor, function: fn }));
}

const IMMUNIZATION_STATUS: Record<string, Immunization['status']> = { CP: 'completed', PA: 'completed', RE: 'not-done', NA: 'not-done' };

/** RXA (+ RXR route and site) → Immunization. */
export function immunization(rxa: Seg, ctx: Ctx, rxr: Seg | undefined, orc?: Seg): Immunization | undefined {
  const vaccineCode = codeableConcept(rxa.f(5));
  const occurrence = ctx.dt(rxa.v(3));
  if (!ctx.patient || !vaccineCode || !occurrence) return undefined;
  const patient = ctx.patient;
  const status = IMMUNIZATION_STATUS[rxa.v(20).toUpperCase()] ?? (rxa.v(21) === 'D' ? 'entered-in-error' : 'completed');
  const amount = rxa.v(6) === '999' ? undefined : quantity(rxa.v(6), rxa.f(7));
  const source = rxa.v(9);
  return ctx.once<Immunization>('Immunization', `RXA|${rxa.index}`, (id) => ({
    resourceType: 'Immunization',
    id,
    status,
    vaccineCode,
    patient,
    occurrenceDateTime: occurrence,
    ...clean<Partial<Immunization>>({
      // the order's placer and filler numbers (ORC-2, ORC-3) name the administration
      identifier: [entityIdentifier(orc?.f(2), 'PLAC'), entityIdentifier(orc?.f(3), 'FILL')].filter((x) => !!x),
      encounter: ctx.encounter,
      doseQuantity: amount,
      lotNumber: rxa.v(15) || undefined,
      expirationDate: date(rxa.v(16)),
      primarySource: source === '00' ? true : source ? false : undefined,
      reportOrigin: source && source !== '00' ? codeableConcept(rxa.f(9)) : undefined,
      performer: [
        ...performers(rxa.reps(10), 'AP', 'Administering Provider', ctx),
        // ORC-12 the ordering provider
        ...performers(orc?.reps(12) ?? [], 'OP', 'Ordering Provider', ctx),
      ],
      // RXA-19 indication, RXA-17 manufacturer, RXA-27 (v2.6+) or RXA-11 where it was given
      reasonCode: rxa
        .reps(19)
        .map(codeableConcept)
        .filter((x) => !!x),
      manufacturer: manufacturer(rxa.f(17), ctx),
      location: location(ctx, rxa.f(27)) ?? location(ctx, rxa.f(11)),
      statusReason: status === 'not-done' ? codeableConcept(rxa.f(18)) : undefined,
      route: rxr ? codeableConcept(rxr.f(1)) : undefined,
      site: rxr ? codeableConcept(rxr.f(2)) : undefined,
      recorded: ctx.dt(rxa.v(22)),
    }),
  }));
}
