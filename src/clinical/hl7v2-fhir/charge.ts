import type { ChargeItem, Money } from '@medplum/fhirtypes';
import { clean, codeableConcept } from './datatypes';
import type { Ctx } from './context';
import type { Field, Seg } from './reader';

/** A CP (price: MO quantity & denomination) → Money, with the currency only when it is an ISO 4217 code. */
function money(f: Field): Money | undefined {
  const value = f.s(1, 1).trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(value)) return undefined;
  const currency = f.s(1, 2).trim().toUpperCase();
  return clean<Money>({ value: Number(value), currency: /^[A-Z]{3}$/.test(currency) ? (currency as Money['currency']) : undefined });
}

/**
 * FT1 (financial transaction) → ChargeItem of the context's patient and visit: FT1-2 transaction id, FT1-4 when
 * (a date range), FT1-5 posting date, FT1-6 type (CG, a charge, is billable), FT1-7 transaction code (the code;
 * without it there is no ChargeItem), FT1-10 quantity, FT1-11 extended amount (else FT1-12 unit amount) as the
 * price, FT1-19 diagnoses as the reason, FT1-20 performed by, FT1-24 entered by.
 */
export function chargeItem(ft1: Seg, ctx: Ctx): ChargeItem | undefined {
  const code = codeableConcept(ft1.f(7));
  if (!ctx.patient || !code) return undefined;
  const subject = ctx.patient;
  const [start, end] = [ctx.dt(ft1.f(4).c(1)), ctx.dt(ft1.f(4).c(2))];
  const quantity = /^\d+(\.\d+)?$/.test(ft1.v(10)) ? { value: Number(ft1.v(10)) } : undefined;
  return ctx.once<ChargeItem>('ChargeItem', `FT1|${ft1.index}`, (id) => ({
    resourceType: 'ChargeItem',
    id,
    status: ft1.v(6).toUpperCase() === 'CG' ? 'billable' : 'unknown',
    code,
    subject,
    ...clean<Partial<ChargeItem>>({
      identifier: ft1.v(2) ? [{ value: ft1.v(2), type: { text: 'Transaction ID' } }] : [],
      context: ctx.encounter,
      occurrenceDateTime: end && end !== start ? undefined : start,
      occurrencePeriod: end && end !== start ? clean({ start, end }) : undefined,
      enteredDate: ctx.dt(ft1.v(5)),
      quantity,
      priceOverride: money(ft1.f(11)) ?? money(ft1.f(12)),
      reason: ft1
        .reps(19)
        .map(codeableConcept)
        .filter((x) => !!x),
      performer: ft1
        .reps(20)
        .map((f) => ctx.practitioner(f))
        .filter((x) => !!x)
        .map((actor) => ({ actor: actor! })),
      enterer: ctx.practitioner(ft1.f(24)),
    }),
  }));
}
