import type {
  Bundle,
  CodeableConcept,
  Money,
  ExplanationOfBenefit,
  ExplanationOfBenefitItemAdjudication,
  ExplanationOfBenefitItem,
  Organization,
  Period,
  Reference,
} from '@medplum/fhirtypes';
import { components, el } from '../elements';
import { X12SetError } from '../errors';
import { findLoops, segmentOf, segmentsOf } from '../loops';
import type { X12Interchange, X12Loop, X12Segment } from '../types';
import { scopeOf, type ConversionResult } from './claim-837';
import { coding, concept, modifierCoding, money, procedureCoding, SYSTEM, x12Date, x12Period } from './codes';
import { addCoverage } from './coverage';
import { addParty, addPatient, nameLoop } from './parties';
import { ResourceSet } from './resource-set';

/** CLP02 claim status codes. */
const CLAIM_STATUS: Record<string, string> = {
  '1': 'Processed as primary',
  '2': 'Processed as secondary',
  '3': 'Processed as tertiary',
  '4': 'Denied',
  '19': 'Processed as primary, forwarded to additional payer(s)',
  '20': 'Processed as secondary, forwarded to additional payer(s)',
  '21': 'Processed as tertiary, forwarded to additional payer(s)',
  '22': 'Reversal of previous payment',
  '23': 'Not our claim, forwarded to additional payer(s)',
  '25': 'Predetermination pricing only - no payment',
};

const GROUP: Record<string, string> = {
  CO: 'Contractual obligations',
  CR: 'Correction and reversals',
  OA: 'Other adjustments',
  PI: 'Payor initiated reductions',
  PR: 'Patient responsibility',
};

function adjudication(code: string, amount: string): ExplanationOfBenefitItemAdjudication | undefined {
  const value = money(amount);
  return value ? { category: concept(SYSTEM.adjudication, code), amount: value } : undefined;
}

/** CAS: a group code (CAS01) and up to six reason (CARC) / amount / quantity triplets. */
function adjustments(node: X12Loop | undefined): ExplanationOfBenefitItemAdjudication[] {
  const out: ExplanationOfBenefitItemAdjudication[] = [];
  for (const cas of segmentsOf(node, 'CAS')) {
    const group = el(cas, 1);
    for (let i = 2; i <= 17; i += 3) {
      const reason = el(cas, i);
      const amount = money(el(cas, i + 1));
      if (!reason || !amount) continue;
      const quantity = el(cas, i + 2);
      out.push({
        category: concept(SYSTEM.groupCode, group, GROUP[group]),
        reason: concept(SYSTEM.carc, reason),
        amount,
        ...(/^\d*\.?\d+$/.test(quantity) ? { value: Number(quantity) } : {}),
      });
    }
  }
  return out;
}

function dtm(node: { segments: X12Segment[] } | undefined, qualifier: string): string | undefined {
  return x12Date(el(segmentOf(node, 'DTM', qualifier), 2));
}

function period(start?: string, end?: string): Period | undefined {
  return start || end ? { ...(start ? { start } : {}), ...(end ? { end } : {}) } : undefined;
}

/** SVC01 composite: qualifier, code, up to four modifiers, description. */
function product(svc: X12Segment): { product: CodeableConcept; modifier: CodeableConcept[] } {
  const [qualifier = '', code = '', m1 = '', m2 = '', m3 = '', m4 = '', description = ''] = components(svc, 1);
  const modifier = [m1, m2, m3, m4].filter(Boolean).map(modifierCoding);
  if (!code) return { product: { text: `No procedure code in SVC01 (${JSON.stringify(el(svc, 1))})` }, modifier };
  return { product: { coding: [procedureCoding(qualifier, code)], ...(description ? { text: description } : {}) }, modifier };
}

/** One 2110 service payment: SVC (charge, paid, revenue code, units), DTM*472 or 150/151, CAS, AMT*B6 allowed. */
function serviceItem(line: X12Loop, sequence: number): ExplanationOfBenefitItem {
  const svc = line.segments[0]!;
  const { product: productOrService, modifier } = product(svc);
  const revenue = el(svc, 4);
  const units = el(svc, 5) || '1';
  const date = dtm(line, '472');
  const served = date ? undefined : period(dtm(line, '150'), dtm(line, '151'));
  const allowed = segmentOf(line, 'AMT', 'B6');
  const adjudications = [
    adjudication('submitted', el(svc, 2)),
    adjudication('benefit', el(svc, 3)),
    allowed ? adjudication('eligible', el(allowed, 2)) : undefined,
    ...adjustments(line),
  ].filter((a): a is ExplanationOfBenefitItemAdjudication => Boolean(a));
  return {
    sequence,
    ...(revenue && /^\d{3,4}$/.test(revenue) ? { revenue: concept(SYSTEM.revenue, revenue) } : {}),
    productOrService,
    ...(modifier.length ? { modifier } : {}),
    ...(date ? { servicedDate: date } : served ? { servicedPeriod: served } : {}),
    ...(/^\d*\.?\d+$/.test(units) ? { quantity: { value: Number(units) } } : {}),
    ...(adjudications.length ? { adjudication: adjudications } : {}),
  };
}

/**
 * 835 → FHIR R4: one ExplanationOfBenefit per claim payment (2100 CLP): status (CLP02), charged, paid and
 * patient responsibility (CLP03–05), claim-level and line-level adjustments (CAS group and reason codes), the
 * service lines (2110 SVC), the payment (BPR, TRN). Throws X12SetError when the interchange holds no 835.
 */
export function eobsFrom835(ic: X12Interchange): ConversionResult {
  const warnings: string[] = [];
  const entries: Bundle['entry'] = [];
  const found: string[] = [];
  for (const group of ic.groups) {
    for (const tx of group.transactions) {
      found.push(tx.set);
      if (tx.set !== '835') continue;
      const set = new ResourceSet(scopeOf(ic, group, tx));
      const bpr = segmentOf(tx, 'BPR');
      const paymentDate = x12Date(el(bpr, 16));
      if (el(bpr, 16) && !paymentDate) warnings.push(`BPR16 payment date ${JSON.stringify(el(bpr, 16))} is not a calendar date: the payments carry no date`);
      const created = dtm(tx, '405') ?? paymentDate ?? x12Date(el(group.GS, 4)) ?? new Date().toISOString().slice(0, 10);
      const payerLoop = nameLoop(tx, 'PR');
      const payeeLoop = nameLoop(tx, 'PE');
      if (!payerLoop || !payeeLoop) {
        warnings.push(`transaction set ${el(tx.ST, 2)} has no payer (1000A N1*PR) or payee (1000B N1*PE): skipped`);
        continue;
      }
      const insurer = addParty(set, payerLoop) as Reference<Organization>;
      const provider = addParty(set, payeeLoop);
      const trace = el(segmentOf(tx, 'TRN'), 2);
      findLoops(tx, '2100').forEach((claim, i) => {
        const clp = claim.segments[0]!;
        const patientLoop = { loop: '', name: '', segments: [], loops: [] } as X12Loop;
        const qc = segmentOf(claim, 'NM1', 'QC');
        const il = segmentOf(claim, 'NM1', 'IL');
        if (!qc) {
          warnings.push(`claim ${el(clp, 1)}: no patient name (NM1*QC): skipped`);
          return;
        }
        const patient = addPatient(set, { ...patientLoop, segments: [qc] });
        const subscriber = il ? addPatient(set, { ...patientLoop, segments: [il] }) : patient;
        const coverage = addCoverage(set, {
          beneficiary: patient,
          subscriber,
          subscriberId: el(il ?? qc, 9) || undefined,
          payor: insurer,
          relationship: il ? undefined : '18',
        });
        const lines = claim.loops.filter((l) => l.loop === '2110');
        for (const l of lines)
          if (!el(l.segments[0], 1, 2)) warnings.push(`claim ${el(clp, 1)}: SVC01 ${JSON.stringify(el(l.segments[0], 1))} has no procedure code`);
        const institutional = Boolean(segmentOf(claim, 'MIA')) || lines.some((l) => el(l.segments[0], 1, 1) === 'NU');
        const status = el(clp, 2);
        const moa = segmentOf(claim, 'MOA');
        const mia = segmentOf(claim, 'MIA');
        const remarks = [...[3, 4, 5, 6, 7].map((n) => el(moa, n)), ...[5, 20, 21, 22, 23].map((n) => el(mia, n))].filter(Boolean);
        const total = [adjudication('submitted', el(clp, 3)), adjudication('benefit', el(clp, 4))].filter(
          (a): a is ExplanationOfBenefitItemAdjudication & { amount: Money } => Boolean(a),
        );
        const patientPays = money(el(clp, 5));
        const paid = money(el(clp, 4));
        const billable = period(dtm(claim, '232'), dtm(claim, '233'));
        const eob: ExplanationOfBenefit = {
          resourceType: 'ExplanationOfBenefit',
          id: set.idFor(`EOB:${i}:${el(clp, 1)}:${el(clp, 7)}`),
          identifier: [
            { type: { text: 'Patient control number (CLP01)' }, value: el(clp, 1) },
            ...(el(clp, 7) ? [{ type: { text: 'Payer claim control number (CLP07)' }, value: el(clp, 7) }] : []),
          ],
          status: status === '22' ? 'cancelled' : 'active',
          type: concept(SYSTEM.claimType, institutional ? 'institutional' : 'professional'),
          use: 'claim',
          patient,
          ...(billable ? { billablePeriod: billable } : {}),
          created,
          insurer,
          provider,
          outcome: 'complete',
          ...(CLAIM_STATUS[status] ? { disposition: CLAIM_STATUS[status] } : {}),
          insurance: [{ focal: true, coverage }],
          ...(lines.length ? { item: lines.map((l, n) => serviceItem(l, n + 1)) } : {}),
          ...(adjustments(claim).length ? { adjudication: adjustments(claim) } : {}),
          total: [
            ...total,
            ...(patientPays
              ? [{ category: { coding: [coding(SYSTEM.groupCode, 'PR', GROUP.PR)], text: 'Patient responsibility (CLP05)' }, amount: patientPays }]
              : []),
          ],
          ...(paid ? { payment: { amount: paid, ...(paymentDate ? { date: paymentDate } : {}), ...(trace ? { identifier: { value: trace } } : {}) } } : {}),
          ...(remarks.length ? { processNote: remarks.map((code, n) => ({ number: n + 1, type: 'display' as const, text: `Remark code ${code}` })) } : {}),
        };
        if (total.length === 0) warnings.push(`claim ${el(clp, 1)}: CLP03/CLP04 are not amounts`);
        entries.push({ resource: eob });
      });
      for (const resource of set.resources()) entries.push({ resource });
    }
  }
  if (!found.includes('835')) throw new X12SetError('835', found);
  for (const e of entries) e.fullUrl = `urn:uuid:${e.resource!.id}`;
  return { bundle: { resourceType: 'Bundle', type: 'collection', entry: entries }, warnings };
}
