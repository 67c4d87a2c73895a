import type { MedicationDispense } from '@medplum/fhirtypes';
import { clean, codeableConcept, quantity } from './datatypes';
import type { Ctx, Ref } from './context';
import type { Seg } from './reader';

/** ORC-5 (HL7 table 0038) → MedicationDispense.status, as the FHIR-Converter templates map it. */
const DISPENSE_STATUS: Record<string, MedicationDispense['status']> = {
  A: 'preparation',
  CA: 'cancelled',
  CM: 'completed',
  DC: 'stopped',
  ER: 'entered-in-error',
  HD: 'on-hold',
  IP: 'preparation',
  RP: 'stopped',
  SC: 'in-progress',
};

/**
 * RXD (a pharmacy's dispense), with its ORC and RXR → MedicationDispense of the context's patient: RXD-2 the
 * medication, RXD-3 when handed over, RXD-4/5 the amount, RXD-7 the prescription number (and the MedicationRequest
 * of the RXE or RXO it fills, when the message has one), RXD-9 special instructions as notes, RXD-10 who
 * dispensed it, RXD-11 substitution (table 0167: N none), RXD-33 the dispense type, RXR-1 the route; ORC-5 status.
 */
export function medicationDispense(orc: Seg | undefined, rxd: Seg, rxr: Seg | undefined, ctx: Ctx, prescription?: Ref): MedicationDispense | undefined {
  const medication = codeableConcept(rxd.f(2));
  if (!ctx.patient || !medication) return undefined;
  const subject = ctx.patient;
  const number = rxd.v(7);
  const substitution = rxd.v(11).toUpperCase();
  const numbered = number ? { value: number, type: { text: 'Prescription Number' } } : undefined;
  return ctx.once<MedicationDispense>('MedicationDispense', `RXD|${rxd.index}`, (id) => ({
    resourceType: 'MedicationDispense',
    id,
    status: DISPENSE_STATUS[orc?.v(5) ?? ''] ?? 'unknown',
    medicationCodeableConcept: medication,
    subject,
    ...clean<Partial<MedicationDispense>>({
      context: ctx.encounter,
      whenHandedOver: ctx.dt(rxd.v(3)),
      quantity: quantity(rxd.v(4), rxd.f(5)),
      authorizingPrescription: prescription || numbered ? [clean({ ...prescription, identifier: numbered })!] : [],
      note: rxd
        .reps(9)
        .map((f) => f.c(2) || f.c(1))
        .filter((t) => t.trim())
        .map((text) => ({ text })),
      performer: rxd
        .reps(10)
        .map((f) => ctx.practitioner(f))
        .filter((x) => !!x)
        .map((actor) => ({ actor })),
      substitution: substitution ? { wasSubstituted: substitution !== 'N' && substitution !== '0' } : undefined,
      type: codeableConcept(rxd.f(33)),
      dosageInstruction: rxr && codeableConcept(rxr.f(1)) ? [{ route: codeableConcept(rxr.f(1)) }] : [],
    }),
  }));
}

/**
 * FT1 of an order that bills a drug (FT1-29, its NDC code) → the MedicationDispense it charges for, as the
 * FHIR-Converter templates make it: FT1-43 the amount dispensed (CQ), FT1-42 the prescription number.
 */
export function chargedDispense(ft1: Seg, ctx: Ctx): MedicationDispense | undefined {
  const medication = codeableConcept(ft1.f(29));
  if (!ctx.patient || !medication) return undefined;
  const subject = ctx.patient;
  const number = ft1.v(42);
  const amount = ft1.f(43);
  return ctx.once<MedicationDispense>('MedicationDispense', `FT1-29|${ft1.index}`, (id) => ({
    resourceType: 'MedicationDispense',
    id,
    status: 'unknown',
    medicationCodeableConcept: medication,
    subject,
    ...clean<Partial<MedicationDispense>>({
      context: ctx.encounter,
      quantity: quantity(amount.c(1), amount.sub(2)),
      authorizingPrescription: number ? [{ identifier: { value: number, type: { text: 'Prescription Number' } } }] : [],
    }),
  }));
}
