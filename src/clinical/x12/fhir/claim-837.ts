import type { Bundle, Claim, ClaimCareTeam, ClaimInsurance, Coverage, Organization, Patient, Period, Practitioner, Reference } from '@medplum/fhirtypes';
import { components, el } from '../elements';
import { X12SetError } from '../errors';
import { childLoop, findLoops, segmentOf } from '../loops';
import type { X12Group, X12Interchange, X12Loop, X12Transaction } from '../types';
import { addCareTeam, diagnosesAndProcedures, serviceLine } from './claim-837-details';
import { concept, money, SYSTEM, x12Date, x12Period } from './codes';
import { addCoverage, payerOrder } from './coverage';
import { addLocation, addParty, addPatient, nameLoop } from './parties';
import { ResourceSet } from './resource-set';

export interface ConversionResult {
  /** A `collection` Bundle: the Claims (or ExplanationOfBenefits) and the Patients, Organizations, Practitioners, Locations and Coverages they point to. */
  bundle: Bundle;
  /** What could not be carried over, each naming its claim. */
  warnings: string[];
}

/** Identifies the resources of one transaction set: sender (ISA06), ISA13, GS06 and ST02. */
export function scopeOf(ic: X12Interchange, group: X12Group, tx: X12Transaction): string {
  return [el(ic.ISA, 6).trim(), el(ic.ISA, 13), el(group.GS, 6), el(tx.ST, 2)].join('|');
}

interface ClaimContext {
  set: ResourceSet;
  tx: X12Transaction;
  created: string;
  provider: Reference<Organization | Practitioner>;
  patient: Reference<Patient>;
  coverage: Reference<Coverage>;
  /** The claim's ordinal in its transaction set (CLM01 may repeat). */
  ordinal: number;
  warn: (message: string) => void;
}

/**
 * 837 (professional or institutional, 4010 or 5010) → FHIR R4: one Claim per 2300 loop, with the billing
 * provider, subscriber, patient, payer, coverage, care team and facility as resources beside it. Throws
 * X12SetError when the interchange holds no 837.
 */
export function claimsFrom837(ic: X12Interchange): ConversionResult {
  const warnings: string[] = [];
  const entries: Bundle['entry'] = [];
  const found: string[] = [];
  let claims = 0;
  for (const group of ic.groups) {
    for (const tx of group.transactions) {
      found.push(tx.set);
      if (tx.set !== '837') continue;
      const set = new ResourceSet(scopeOf(ic, group, tx));
      const created = x12Date(el(segmentOf(tx, 'BHT'), 4)) ?? x12Date(el(group.GS, 4)) ?? new Date().toISOString().slice(0, 10);
      const receiver = nameLoop(tx, '40');
      for (const billing of findLoops(tx, '2000A')) {
        const billingName = nameLoop(billing, '85');
        if (!billingName) {
          warnings.push(`billing provider level (HL ${el(billing.segments[0], 1)}) has no 2010AA NM1*85: its claims are skipped`);
          continue;
        }
        const provider = addParty(set, billingName);
        for (const subscriberLevel of billing.loops.filter((l) => l.loop === '2000B')) {
          const sbr = segmentOf(subscriberLevel, 'SBR');
          const subscriberName = nameLoop(subscriberLevel, 'IL');
          const payerName = nameLoop(subscriberLevel, 'PR') ?? receiver;
          if (!subscriberName || !payerName) {
            warnings.push(`subscriber level (HL ${el(subscriberLevel.segments[0], 1)}) has no subscriber or payer name: its claims are skipped`);
            continue;
          }
          const subscriber = addPatient(set, subscriberName);
          const payor = addParty(set, payerName) as Reference<Organization>;
          const subscriberId = el(subscriberName.segments[0], 9) || undefined;
          const base = { subscriber, subscriberId, payor, group: el(sbr, 3) || undefined, groupName: el(sbr, 4) || undefined, order: payerOrder(el(sbr, 1)) };
          const ctx = { set, tx, created, provider, warn: (m: string) => warnings.push(m) };
          for (const claim of subscriberLevel.loops.filter((l) => l.loop === '2300')) {
            const coverage = addCoverage(set, { ...base, beneficiary: subscriber, relationship: el(sbr, 2) || '18' });
            entries.push({ resource: toClaim(claim, { ...ctx, patient: subscriber, coverage, ordinal: ++claims }) });
          }
          for (const patientLevel of subscriberLevel.loops.filter((l) => l.loop === '2000C')) {
            const patientName = nameLoop(patientLevel, 'QC');
            if (!patientName) continue;
            const patient = addPatient(set, patientName);
            const coverage = addCoverage(set, { ...base, beneficiary: patient, relationship: el(segmentOf(patientLevel, 'PAT'), 1) });
            for (const claim of patientLevel.loops.filter((l) => l.loop === '2300')) {
              entries.push({ resource: toClaim(claim, { ...ctx, patient, coverage, ordinal: ++claims }) });
            }
          }
        }
      }
      for (const resource of set.resources()) entries.push({ resource });
    }
  }
  if (!found.includes('837')) throw new X12SetError('837', found);
  for (const e of entries) e.fullUrl = `urn:uuid:${e.resource!.id}`;
  if (claims === 0) warnings.push('the 837 holds no claim (2300 loop)');
  return { bundle: { resourceType: 'Bundle', type: 'collection', entry: entries }, warnings };
}

function toClaim(claim: X12Loop, ctx: ClaimContext): Claim {
  const { set } = ctx;
  const clm = claim.segments[0]!;
  const claimId = el(clm, 1);
  const warn = (m: string) => ctx.warn(`claim ${claimId}: ${m}`);
  const institutional = ctx.tx.kind === '837I';
  const { diagnosis, procedure } = diagnosesAndProcedures(claim);
  const careTeam: ClaimCareTeam[] = [];
  addCareTeam(set, claim, careTeam);
  const clm05 = components(clm, 5);
  const placeOfService = !institutional && clm05[1] === 'B' ? (clm05[0] ?? '') : '';
  const items = claim.loops
    .filter((l) => l.loop === '2400')
    .map((line, i) => {
      const item = serviceLine(line, i + 1, diagnosis.length, placeOfService, warn);
      const team = addCareTeam(set, line, careTeam);
      return team.length ? { ...item, careTeamSequence: team } : item;
    });
  const insurance: ClaimInsurance[] = [{ sequence: 1, focal: true, coverage: ctx.coverage }];
  for (const other of claim.loops.filter((l) => l.loop === '2320')) {
    const coverage = otherCoverage(other, ctx);
    if (coverage) insurance.push({ sequence: insurance.length + 1, focal: false, coverage });
  }
  const facility = nameLoop(claim, '77', 'FA', 'LI', 'TL');
  const billablePeriod = statementPeriod(claim) ?? servicePeriod(items);
  const accident = accidentOf(claim);
  const total = money(el(clm, 2));
  return {
    resourceType: 'Claim',
    id: set.idFor(`Claim:${ctx.ordinal}:${claimId}`),
    identifier: [{ type: { text: 'Patient control number (CLM01)' }, value: claimId }],
    status: clm05[2] === '8' ? 'cancelled' : 'active',
    type: concept(SYSTEM.claimType, institutional ? 'institutional' : 'professional'),
    use: 'claim',
    patient: ctx.patient,
    ...(billablePeriod ? { billablePeriod } : {}),
    created: ctx.created,
    provider: ctx.provider,
    priority: concept(SYSTEM.priority, 'normal'),
    ...(facility ? { facility: addLocation(set, facility) } : {}),
    ...(careTeam.length ? { careTeam } : {}),
    ...(diagnosis.length ? { diagnosis } : {}),
    ...(procedure.length ? { procedure } : {}),
    insurance,
    ...(accident ? { accident } : {}),
    ...(items.length ? { item: items } : {}),
    ...(total ? { total } : {}),
  };
}

/** 2320 other subscriber: SBR (order, relationship, group), 2330A other subscriber, 2330B other payer. */
function otherCoverage(other: X12Loop, ctx: ClaimContext): Reference<Coverage> | undefined {
  const sbr = other.segments[0]!;
  const payerName = nameLoop(other, 'PR');
  if (!payerName) return undefined;
  const subscriberName = nameLoop(other, 'IL');
  const self = el(sbr, 2) === '18';
  const subscriber = subscriberName && !self ? addPatient(ctx.set, subscriberName, other) : ctx.patient;
  return addCoverage(ctx.set, {
    beneficiary: ctx.patient,
    subscriber,
    subscriberId: el(subscriberName?.segments[0], 9) || undefined,
    payor: addParty(ctx.set, payerName) as Reference<Organization>,
    relationship: el(sbr, 2) || undefined,
    group: el(sbr, 3) || undefined,
    groupName: el(sbr, 4) || undefined,
    order: payerOrder(el(sbr, 1)),
  });
}

/** DTP*434 statement from–through dates. */
function statementPeriod(claim: X12Loop): Period | undefined {
  const dtp = segmentOf(claim, 'DTP', '434');
  if (!dtp) return undefined;
  const { date, period } = x12Period(el(dtp, 2), el(dtp, 3));
  return period ?? (date ? { start: date, end: date } : undefined);
}

/** The first and last service dates of the lines, when the claim has no statement dates. */
function servicePeriod(items: { servicedDate?: string; servicedPeriod?: Period }[]): Period | undefined {
  const dates = items.flatMap((i) => [i.servicedDate, i.servicedPeriod?.start, i.servicedPeriod?.end]).filter((d): d is string => Boolean(d));
  if (dates.length === 0) return undefined;
  dates.sort();
  return { start: dates[0]!, end: dates[dates.length - 1]! };
}

const ACCIDENT: Record<string, string> = { AA: 'MVA', EM: 'WPA' };

/** CLM11 related causes (AA auto, EM employment, OA other) with the DTP*439 accident date and CLM11-4 state. */
function accidentOf(claim: X12Loop): Claim['accident'] {
  const causes = components(claim.segments[0], 11);
  const dtp = segmentOf(claim, 'DTP', '439');
  const date = dtp ? x12Period(el(dtp, 2), el(dtp, 3)).date : undefined;
  if (!date || !causes.some((c) => c === 'AA' || c === 'EM' || c === 'OA')) return undefined;
  const code = causes.map((c) => ACCIDENT[c]).find(Boolean);
  const state = causes[3];
  return {
    date,
    type: code ? concept(SYSTEM.actCode, code) : { text: 'Other accident' },
    ...(state ? { locationAddress: { state, ...(causes[4] ? { country: causes[4] } : {}) } } : {}),
  };
}
