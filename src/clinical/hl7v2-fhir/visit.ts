import type { Encounter, EncounterLocation, EncounterParticipant, Location } from '@medplum/fhirtypes';
import { clean } from './datatypes';
import type { Ctx, Ref } from './context';
import { location } from './locations';
import type { Field, Seg } from './reader';

/** PV2-25 visit priority (HL7 table 0217) → v3 ActPriority, as the FHIR-Converter templates map it. */
const PRIORITY: Record<string, { code: string; display: string }> = {
  '1': { code: 'EM', display: 'emergency' },
  '2': { code: 'UR', display: 'urgent' },
  '3': { code: 'EL', display: 'elective' },
};

/** PV2-22 visit protection indicator → the visit's confidentiality. */
const PROTECTION: Record<string, { code: string; display: string }> = { Y: { code: 'R', display: 'restricted' }, N: { code: 'N', display: 'normal' } };

/**
 * Where the visit was, is and will be: PV1-3 assigned location (planned for a pre-admit, completed once the visit
 * ended, else active), PV1-11 temporary location (likewise), PV1-6 prior and PV1-43 prior temporary location
 * (completed), PV1-42 and PV2-1 pending location (planned).
 */
function locations(pv1: Seg, pv2: Seg | undefined, ctx: Ctx, status: Encounter['status']): EncounterLocation[] {
  const now: EncounterLocation['status'] = status === 'finished' ? 'completed' : status === 'planned' ? 'planned' : 'active';
  const fields: [Seg | undefined, number, EncounterLocation['status']][] = [
    [pv1, 3, now],
    [pv1, 11, now],
    [pv1, 6, 'completed'],
    [pv1, 43, 'completed'],
    [pv1, 42, 'planned'],
    [pv2, 1, 'planned'],
  ];
  const out: EncounterLocation[] = [];
  for (const [seg, n, st] of fields) {
    const ref = seg && location(ctx, seg.f(n));
    if (ref && !out.some((l) => l.location.reference === ref.reference)) out.push({ location: ref, status: st });
  }
  return out;
}

/** PV1-52 other healthcare providers (participation) and PV2-13 referral source (referrer). */
export function visitParticipants(pv1: Seg, pv2: Seg | undefined, ctx: Ctx): EncounterParticipant[] {
  const system = 'http://terminology.hl7.org/CodeSystem/v3-ParticipationType';
  const of = (fields: Field[], code: string, display: string) =>
    fields
      .map((f) => ctx.practitioner(f))
      .filter((x) => !!x)
      .map((individual) => ({ type: [{ coding: [{ code, display, system }] }], individual }));
  return [...of(pv1.reps(52), 'PART', 'Participation'), ...of(pv2?.reps(13) ?? [], 'REF', 'referrer')];
}

/** PV1-37 discharged to location (DLD: the place coded in its first component) → a Location. */
export function dischargedTo(pv1: Seg, ctx: Ctx): Ref | undefined {
  const dld = pv1.f(37);
  const code = dld.s(1, 1).trim();
  const name = dld.s(1, 2).trim() || code;
  if (!name) return undefined;
  const made = ctx.once<Location>('Location', `DLD|${code}|${name}`, (id) => ({ resourceType: 'Location', id, name, mode: 'kind' }), true);
  return ctx.ref(made);
}

/**
 * What PV1 and PV2 say of a visit beyond its class, type, people and dates: its locations, PV2-11 length of stay
 * (days), PV2-25 priority and PV2-22 protection (meta.security).
 */
export function visitDetails(pv1: Seg, pv2: Seg | undefined, ctx: Ctx, status: Encounter['status']): Partial<Encounter> {
  const priority = PRIORITY[pv2?.v(25) ?? ''];
  const protection = PROTECTION[(pv2?.v(22) ?? '').toUpperCase()];
  const days = pv2?.v(11) ?? '';
  return (
    clean<Partial<Encounter>>({
      location: locations(pv1, pv2, ctx, status),
      length: /^\d+(\.\d+)?$/.test(days) ? { value: Number(days), unit: 'd', system: 'http://unitsofmeasure.org', code: 'd' } : undefined,
      priority: priority ? { coding: [{ ...priority, system: 'http://terminology.hl7.org/CodeSystem/v3-ActPriority' }] } : undefined,
      meta: protection ? { security: [{ ...protection, system: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality' }] } : undefined,
    }) ?? {}
  );
}
