import type { Bundle, Coverage, ExplanationOfBenefit, Organization, Patient, Resource } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { parseX12, X12SetError, type X12Interchange } from '../index';
import { r4Errors, x12Sample, x12Samples } from '../../../../tests/support/clinical/x12';
import { eobsFrom835 } from './eob-835';

function interchange(text: string): X12Interchange {
  const r = parseX12(text);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.interchange;
}

function eobs(bundle: Bundle): ExplanationOfBenefit[] {
  return bundle.entry!.map((e) => e.resource!).filter((r): r is ExplanationOfBenefit => r.resourceType === 'ExplanationOfBenefit');
}

function resolve<T extends Resource>(bundle: Bundle, reference: string | undefined): T {
  const entry = bundle.entry?.find((e) => e.fullUrl === reference);
  if (!entry) throw new Error(`${reference} does not resolve in the bundle`);
  return entry.resource as T;
}

/** [category or group code, reason, amount] of adjudications. */
const adj = (list: ExplanationOfBenefit['adjudication']) =>
  (list ?? []).map((a) => [a.category.coding?.[0]?.code, a.reason?.coding?.[0]?.code, a.amount?.value]);

describe('835 → FHIR ExplanationOfBenefit bundle', () => {
  it.each(x12Samples('835').map((s) => [s.name, s.text] as const))('%s: one valid EOB per CLP, every resource valid R4', (_name, text) => {
    const { bundle } = eobsFrom835(interchange(text));
    expect(eobs(bundle)).toHaveLength(text.split('~').filter((s) => s.trim().startsWith('CLP*')).length);
    for (const entry of bundle.entry!) expect(r4Errors(entry.resource!), entry.resource!.resourceType).toEqual([]);
    for (const eob of eobs(bundle)) {
      resolve<Patient>(bundle, eob.patient.reference);
      expect(resolve<Organization>(bundle, eob.insurer.reference).resourceType).toBe('Organization');
      resolve<Coverage>(bundle, eob.insurance[0]!.coverage.reference);
    }
  });

  it('managed care: claim status, charged / paid / patient responsibility, CAS at claim and line level, service lines', () => {
    const { bundle, warnings } = eobsFrom835(interchange(x12Sample('835_005010X221A1/managed-care.835')));
    expect(warnings).toEqual(['BPR16 payment date "20002316" is not a calendar date: the payments carry no date']);
    const [first, second] = eobs(bundle);
    expect(first).toMatchObject({
      identifier: [
        { type: { text: 'Patient control number (CLP01)' }, value: '5554555444' },
        { type: { text: 'Payer claim control number (CLP07)' }, value: '94060555410000' },
      ],
      status: 'active',
      outcome: 'complete',
      disposition: 'Processed as primary',
      created: '2002-03-14',
      payment: { amount: { value: 450, currency: 'USD' }, identifier: { value: '7170066655' } },
    });
    expect(first!.total?.map((t) => [t.category.coding?.[0]?.code, t.amount.value])).toEqual([
      ['submitted', 800],
      ['benefit', 450],
      ['PR', 300],
    ]);
    expect(adj(first!.adjudication)).toEqual([['CO', 'A2', 50]]);
    expect(first!.item?.map((i) => [i.productOrService.coding?.[0]?.code, i.servicedPeriod, adj(i.adjudication)])).toEqual([
      [
        '99211',
        { start: '2002-03-01', end: '2002-03-04' },
        [
          ['submitted', undefined, 800],
          ['benefit', undefined, 500],
          ['PR', '1', 300],
        ],
      ],
    ]);
    expect(adj(second!.item![0]!.adjudication)).toEqual([
      ['submitted', undefined, 1200],
      ['benefit', undefined, 550],
      ['PR', '1', 600],
      ['CO', '45', 50],
    ]);
    expect(resolve<Patient>(bundle, second!.patient.reference).name).toEqual([{ family: 'SETTLE', given: ['SUSAN'] }]);
    expect(resolve<Organization>(bundle, first!.provider.reference)).toMatchObject({
      name: 'ACME MEDICAL CENTER',
      identifier: [{ system: 'http://hl7.org/fhir/sid/us-npi', value: '5544667733' }],
    });
    expect(resolve<Organization>(bundle, first!.insurer.reference).name).toBe('RUSHMORE LIFE');
  });

  it('Medicare part A: institutional (MIA), statement period, remark codes, payment date', () => {
    const { bundle } = eobsFrom835(interchange(x12Sample('835_005010X221A1/medicare-part-a.835')));
    const [inpatient, outpatient] = eobs(bundle);
    expect(inpatient).toMatchObject({
      type: { coding: [{ code: 'institutional' }] },
      billablePeriod: { start: '2002-08-16', end: '2002-08-24' },
      payment: { date: '2002-09-13' },
    });
    expect(adj(inpatient!.adjudication)).toEqual([['CO', '45', 73348.57]]);
    expect(outpatient!.processNote).toEqual([{ number: 1, type: 'display', text: 'Remark code MA02' }]);
    expect(outpatient!.total?.map((t) => t.amount.value)).toEqual([15000, 11980.33]);
  });

  it('says so when SVC01 carries no procedure code (tertiary payment sample) and still gives a valid item', () => {
    const { bundle, warnings } = eobsFrom835(interchange(x12Sample('835_005010X221A1/tertiary-payment.835')));
    expect(warnings).toEqual(['claim 0001000054: SVC01 "HC" has no procedure code']);
    const [eob] = eobs(bundle);
    expect(eob!.disposition).toBe('Processed as tertiary');
    expect(eob!.item?.[0]?.productOrService).toEqual({ text: 'No procedure code in SVC01 ("HC")' });
  });

  it('refuses an interchange with no 835', () => {
    expect(() => eobsFrom835(interchange(x12Sample('837_005010X222A2/demo.example1.837')))).toThrow(X12SetError);
  });
});
