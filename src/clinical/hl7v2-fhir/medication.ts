import type { CodeableConcept, Dosage, Identifier, MedicationRequest } from '@medplum/fhirtypes';
import { clean, codeableConcept, entityIdentifier, quantity, tableConcept } from './datatypes';
import type { Ctx, Ref } from './context';
import type { Field, Seg } from './reader';

/** ORC-5, HL7 table 0038 → MedicationRequest.status; without it, ORC-1 (table 0119) decides. */
const ORDER_STATUS: Record<string, MedicationRequest['status']> = {
  A: 'active',
  CA: 'cancelled',
  CM: 'completed',
  DC: 'stopped',
  ER: 'entered-in-error',
  HD: 'on-hold',
  IP: 'active',
  RP: 'cancelled',
  SC: 'active',
};
const ORDER_CONTROL: Record<string, MedicationRequest['status']> = {
  NW: 'active',
  OK: 'active',
  SC: 'active',
  XO: 'active',
  RP: 'active',
  RE: 'active',
  CA: 'cancelled',
  CR: 'cancelled',
  OC: 'cancelled',
  DC: 'stopped',
  OD: 'stopped',
  DR: 'stopped',
  HD: 'on-hold',
  OH: 'on-hold',
};

/**
 * Where RXO and RXE keep the same facts (HL7 v2.5+): the medication (give code), the dose (minimum, maximum,
 * units), the instructions (CWE), the dispense amount and units, the refills, the ordering provider, the
 * indication, the rate, the total daily dose (CQ).
 */
const FIELDS = {
  RXO: {
    code: 1,
    min: 2,
    max: 3,
    units: 4,
    instructions: 7,
    dispense: 11,
    dispenseUnits: 12,
    refills: 13,
    provider: 14,
    indication: 20,
    rate: 21,
    rateUnits: 22,
    daily: 23,
  },
  RXE: {
    code: 2,
    min: 3,
    max: 4,
    units: 5,
    instructions: 7,
    dispense: 10,
    dispenseUnits: 11,
    refills: 12,
    provider: 13,
    indication: 27,
    rate: 23,
    rateUnits: 24,
    daily: 19,
  },
} as const;

/** An instruction (CWE): coded when it names a code system or a text beside the code, else free text. */
function instruction(f: Field): CodeableConcept | undefined {
  if (f.c(2) || f.c(3)) return codeableConcept(f);
  const text = f.c(1).trim();
  return text ? { text } : undefined;
}

function dosage(rx: Seg, rxr: Seg | undefined, at: (typeof FIELDS)['RXO' | 'RXE']): Dosage | undefined {
  const min = quantity(rx.v(at.min), rx.f(at.units));
  const max = quantity(rx.v(at.max), rx.f(at.units));
  const rate = quantity(rx.v(at.rate), rx.f(at.rateUnits));
  const dose = min && max ? { doseRange: { low: min, high: max } } : min ? { doseQuantity: min } : {};
  const doseAndRate = clean({ ...dose, rateQuantity: rate });
  // RXO-6 the provider's pharmacy or treatment instructions (text)
  const text =
    rx.id === 'RXO'
      ? rx
          .reps(6)
          .map((f) => f.c(2) || f.c(1))
          .filter(Boolean)
          .join('; ')
      : '';
  const daily = quantity(rx.f(at.daily).c(1), rx.f(at.daily).sub(2));
  return clean<Dosage>({
    text: text || undefined,
    additionalInstruction: rx
      .reps(at.instructions)
      .map(instruction)
      .filter((x) => !!x),
    doseAndRate: doseAndRate ? [doseAndRate] : [],
    maxDosePerPeriod: daily ? { numerator: daily, denominator: { value: 1, unit: 'd', system: 'http://unitsofmeasure.org', code: 'd' } } : undefined,
    route: rxr ? codeableConcept(rxr.f(1)) : undefined,
    site: rxr ? codeableConcept(rxr.f(2)) : undefined,
    method: rxr ? codeableConcept(rxr.f(4)) : undefined,
  });
}

/**
 * RXO (the order as the prescriber placed it: intent original-order) or RXE (as the pharmacy encoded it:
 * filler-order, based on the RXO of its order when there is one), with its ORC and RXR → MedicationRequest of the
 * context's patient: ORC-2/3/4 and RXE-15 (prescription number) identifiers, ORC-5/ORC-1 status, ORC-9 (or RXE-32)
 * when, ORC-12 (or the RXO/RXE ordering provider) requester, RXO-9 substitution (table 0161).
 */
export function medicationRequest(orc: Seg | undefined, rx: Seg, rxr: Seg | undefined, ctx: Ctx, basedOn?: Ref): MedicationRequest | undefined {
  const at = FIELDS[rx.id as 'RXO' | 'RXE'];
  const medication = codeableConcept(rx.f(at.code));
  if (!ctx.patient || !medication) return undefined;
  const subject = ctx.patient;
  const rxe = rx.id === 'RXE';
  const dispense = quantity(rx.v(at.dispense), rx.f(at.dispenseUnits));
  const refills = /^\d+$/.test(rx.v(at.refills)) ? Number(rx.v(at.refills)) : undefined;
  return ctx.once<MedicationRequest>('MedicationRequest', `${rx.id}|${rx.index}`, (id) => ({
    resourceType: 'MedicationRequest',
    id,
    status: ORDER_STATUS[orc?.v(5) ?? ''] ?? ORDER_CONTROL[orc?.v(1) ?? ''] ?? 'unknown',
    intent: rxe ? 'filler-order' : 'original-order',
    medicationCodeableConcept: medication,
    subject,
    ...clean<Partial<MedicationRequest>>({
      identifier: [
        entityIdentifier(orc?.f(2), 'PLAC'),
        entityIdentifier(orc?.f(3), 'FILL'),
        entityIdentifier(orc?.f(4).sub(1), 'PGN'),
        rxe && rx.v(15) ? { value: rx.v(15), type: { text: 'Prescription Number' } } : undefined,
      ].filter((x): x is Identifier => !!x),
      basedOn: basedOn ? [basedOn] : [],
      encounter: ctx.encounter,
      authoredOn: ctx.dt(orc?.v(9) ?? '') ?? (rxe ? ctx.dt(rx.v(32)) : undefined),
      requester: ctx.practitioner(orc?.reps(12)[0]) ?? ctx.practitioner(rx.f(at.provider)),
      reasonCode: rx
        .reps(at.indication)
        .map(codeableConcept)
        .filter((x) => !!x),
      dosageInstruction: [dosage(rx, rxr, at)].filter((x) => !!x),
      dispenseRequest: clean({ quantity: dispense, numberOfRepeatsAllowed: refills }),
      substitution: !rxe && rx.v(9) ? { allowedCodeableConcept: tableConcept(rx.v(9), '0161')! } : undefined,
    }),
  }));
}
