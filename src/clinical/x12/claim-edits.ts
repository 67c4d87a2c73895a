import { components, el, elementName } from './elements';
import { X12SetError } from './errors';
import { cents, x12Date } from './fhir/codes';
import { findLoops, segmentOf, segmentsOf } from './loops';
import { npiProblem } from './npi';
import type { X12Interchange, X12Loop, X12Segment, X12Separators, X12Transaction } from './types';

export interface ClaimIssue {
  severity: 'error' | 'warning';
  /**
   * NPI_MISSING, NPI_INVALID, DATE_INVALID, DATE_RANGE_REVERSED, DATE_IN_FUTURE, DATE_AFTER_STATEMENT, DATE_BEFORE_STATEMENT,
   * DATE_AFTER_CREATION, DATE_BEFORE_BIRTH, AMOUNT_INVALID, TOTAL_MISMATCH, DIAGNOSIS_POINTER_MISSING, COMPOSITE_SEPARATOR
   */
  code: string;
  message: string;
  /** CLM01 of the claim, when the issue is inside one. */
  claim?: string;
  loop: string;
  segment: string;
  element?: string;
  /** The service line (LX01), for issues in a 2400 loop. */
  line?: number;
  value?: string;
  /** `2400 SV1 (line 2) SV107-2` */
  location: string;
}

export interface ClaimEditOptions {
  /** The day dates must not be after (`YYYY-MM-DD`); today (UTC) by default. */
  today?: string;
}

interface Where {
  claim?: string;
  loop: string;
  segment: string;
  element?: string;
  line?: number;
  value?: string;
}

type Report = (severity: ClaimIssue['severity'], code: string, message: string, where: Where) => void;

/**
 * Claim edits over every 837 of the interchange: missing or malformed NPIs (10 digits, Luhn check over 80840),
 * impossible dates (not a calendar date, a range that ends before it starts, in the future, a service after
 * the statement period or the claim's creation, before the patient's birth), line charges that do not add up
 * to CLM02, diagnosis pointers (SV107) with no diagnosis, composites written with a separator other than ISA16.
 * Each issue names the loop, segment and element. Throws X12SetError when there is no 837.
 */
export function claimEdits(ic: X12Interchange, options: ClaimEditOptions = {}): ClaimIssue[] {
  const today = options.today ?? new Date().toISOString().slice(0, 10);
  const issues: ClaimIssue[] = [];
  const report: Report = (severity, code, message, where) => {
    const location = `${where.loop} ${where.segment}${where.line !== undefined ? ` (line ${where.line})` : ''}${where.element ? ` ${where.element}` : ''}`;
    issues.push({ severity, code, message, ...where, location });
  };
  const transactions = ic.groups.flatMap((g) => g.transactions);
  if (!transactions.some((t) => t.set === '837'))
    throw new X12SetError(
      '837',
      transactions.map((t) => t.set),
    );
  for (const tx of transactions.filter((t) => t.set === '837')) checkTransaction(tx, ic.separators, today, report);
  return issues;
}

function checkTransaction(tx: X12Transaction, seps: X12Separators, today: string, report: Report): void {
  const v5010 = !/^004010/.test(tx.guide);
  const bht = segmentOf(tx, 'BHT');
  const created = checkDate(el(bht, 4), { loop: 'header', segment: 'BHT', element: 'BHT04' }, today, report);
  for (const billing of findLoops(tx, '2000A')) {
    const name = billing.loops.find((l) => el(l.segments[0], 1) === '85' && l.segments[0]!.id === 'NM1');
    if (!name) report('error', 'NPI_MISSING', 'The billing provider level has no billing provider name (NM1*85)', { loop: '2000A', segment: 'HL' });
    else if (el(name.segments[0], 8) !== 'XX') {
      const severity = v5010 ? 'error' : 'warning';
      const id = el(name.segments[0], 8) ? `${el(name.segments[0], 8)} ${el(name.segments[0], 9)}` : 'nothing';
      report(
        severity,
        'NPI_MISSING',
        `The billing provider is identified by ${id}, not an NPI (NM108 = XX)${v5010 ? '' : ' (allowed in 4010 before the NPI mandate)'}`,
        { loop: name.loop, segment: 'NM1', element: 'NM108' },
      );
    }
  }
  checkNpis(tx, undefined, report);
  for (const claim of findLoops(tx, '2300')) checkClaim(claim, tx, seps, { today, created }, report);
}

/** Every NM1 with NM108 = XX in the loop tree carries a well-formed NPI in NM109. */
function checkNpis(node: { loops: X12Loop[] }, claim: string | undefined, report: Report, line?: number): void {
  node.loops.forEach((loop, i) => {
    if (loop.loop === '2300') return; // a claim's providers are checked with the claim
    const nm1 = loop.segments[0];
    if (nm1?.id === 'NM1' && el(nm1, 8) === 'XX') {
      const problem = npiProblem(el(nm1, 9));
      const where = { claim, loop: loop.loop, segment: 'NM1', element: 'NM109', ...(line !== undefined ? { line } : {}), value: el(nm1, 9) };
      if (problem) report('error', 'NPI_INVALID', `NPI ${JSON.stringify(el(nm1, 9))} of ${loop.name.toLowerCase()} ${problem}`, where);
    }
    checkNpis(loop, claim, report, loop.loop === '2400' ? lineNumber(loop, i) : line);
  });
}

/** LX01 of a service line, else its ordinal among the claim's loops. */
function lineNumber(line: X12Loop, index: number): number {
  const lx01 = el(line.segments[0], 1);
  return /^\d+$/.test(lx01) ? Number(lx01) : index + 1;
}

interface Dates {
  today: string;
  created?: string;
}

/** A D8 date that must be a calendar date and not after today; returns it as YYYY-MM-DD. */
function checkDate(value: string, where: Where, today: string, report: Report): string | undefined {
  if (!value) return undefined;
  const date = x12Date(value);
  if (!date || !/^\d{8}$/.test(value.slice(0, 8))) {
    report('error', 'DATE_INVALID', `${where.element} ${JSON.stringify(value)} is not a calendar date (CCYYMMDD)`, { ...where, value });
    return undefined;
  }
  if (date > today) report('error', 'DATE_IN_FUTURE', `${where.element} ${date} is in the future (today is ${today})`, { ...where, value });
  return date;
}

/** DTP03 as a period: D8 is one day, RD8 a range (checked to run forward). */
function dtpPeriod(dtp: X12Segment, where: Where, today: string, report: Report): { start?: string; end?: string } {
  const format = el(dtp, 2);
  const value = el(dtp, 3);
  const at = { ...where, segment: 'DTP', element: 'DTP03' };
  if (format === 'RD8') {
    const [a = '', b = ''] = value.split('-');
    const start = checkDate(a, at, today, report);
    const end = checkDate(b, at, today, report);
    if (start && end && end < start) report('error', 'DATE_RANGE_REVERSED', `DTP03 ${value} ends before it starts`, { ...at, value });
    return { start, end };
  }
  const date = checkDate(value, at, today, report);
  return { start: date, end: date };
}

function checkClaim(claim: X12Loop, tx: X12Transaction, seps: X12Separators, dates: Dates, report: Report): void {
  const clm = claim.segments[0]!;
  const id = el(clm, 1);
  const at = (loop: string, segment: string, element?: string, line?: number): Where => ({
    claim: id,
    loop,
    segment,
    ...(element ? { element } : {}),
    ...(line !== undefined ? { line } : {}),
  });
  checkNpis(claim, id, report);

  // Composites written with another separator than ISA16 (the whole element then reads as one code).
  const composites: [X12Segment | undefined, number[]][] = [
    [clm, [5, 11]],
    ...segmentsOf(claim, 'HI').map((hi): [X12Segment, number[]] => [hi, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]]),
  ];
  for (const line of claim.loops.filter((l) => l.loop === '2400')) composites.push([segmentOf(line, 'SV1'), [1, 7]], [segmentOf(line, 'SV2'), [2]]);
  for (const [segment, positions] of composites) {
    for (const n of positions) {
      const value = segment?.[elementName(segment.id, n)];
      const stray = typeof value === 'string' ? /[:>^|\\!]/.exec(value)?.[0] : undefined;
      if (segment && stray && stray !== seps.component) {
        report(
          'error',
          'COMPOSITE_SEPARATOR',
          [
            `${elementName(segment.id, n)} ${JSON.stringify(value)} is written with "${stray}" but`,
            `ISA16 makes "${seps.component}" the component separator, so it reads as one value`,
          ].join(' '),
          {
            ...at(segment.id === 'CLM' || segment.id === 'HI' ? '2300' : '2400', segment.id, elementName(segment.id, n)),
            value: value as string,
          },
        );
      }
    }
  }

  // Dates: statement period (DTP*434), service dates (DTP*472), patient's birth (DMG02).
  let statement: { start?: string; end?: string } = {};
  for (const dtp of segmentsOf(claim, 'DTP')) {
    const p = dtpPeriod(dtp, at('2300', 'DTP'), dates.today, report);
    if (el(dtp, 1) === '434') statement = p;
  }
  const birth = birthDate(claim, tx, dates.today, report);
  const lines = claim.loops.filter((l) => l.loop === '2400');
  let sum = 0;
  const diagnoses = diagnosisCount(claim);
  lines.forEach((line, i) => {
    const number = lineNumber(line, i);
    for (const dtp of segmentsOf(line, 'DTP')) {
      const where = at('2400', 'DTP', 'DTP03', number);
      const { start, end } = dtpPeriod(dtp, where, dates.today, report);
      if (el(dtp, 1) !== '472') continue;
      if (end && statement.end && end > statement.end)
        report('error', 'DATE_AFTER_STATEMENT', `Service date ${end} is after the statement period ends (${statement.end}, 2300 DTP*434)`, {
          ...where,
          value: el(dtp, 3),
        });
      if (start && statement.start && start < statement.start)
        report('error', 'DATE_BEFORE_STATEMENT', `Service date ${start} is before the statement period starts (${statement.start}, 2300 DTP*434)`, {
          ...where,
          value: el(dtp, 3),
        });
      if (end && dates.created && end > dates.created)
        report('error', 'DATE_AFTER_CREATION', `Service date ${end} is after the claim was created (${dates.created}, BHT04)`, { ...where, value: el(dtp, 3) });
      if (start && birth && start < birth)
        report('error', 'DATE_BEFORE_BIRTH', `Service date ${start} is before the patient's birth date (${birth}, DMG02)`, { ...where, value: el(dtp, 3) });
    }
    const sv1 = segmentOf(line, 'SV1');
    const sv2 = segmentOf(line, 'SV2');
    const [segment, n] = sv1 ? [sv1, 2] : [sv2, 3];
    if (!segment) return;
    const charge = el(segment, n);
    if (!/^-?\d*\.?\d+$/.test(charge))
      report('error', 'AMOUNT_INVALID', `${elementName(segment.id, n)} ${JSON.stringify(charge)} is not an amount`, {
        ...at('2400', segment.id, elementName(segment.id, n), number),
        value: charge,
      });
    else sum += cents(charge);
    if (sv1) {
      components(sv1, 7).forEach((p, k) => {
        const pointer = Number(p);
        if (Number.isInteger(pointer) && pointer >= 1 && pointer <= diagnoses) return;
        const has = diagnoses === 0 ? 'the claim has no diagnosis code (HI)' : `the claim has ${diagnoses} diagnosis code${diagnoses === 1 ? '' : 's'}`;
        report('error', 'DIAGNOSIS_POINTER_MISSING', `Diagnosis pointer ${JSON.stringify(p)} points to no diagnosis: ${has}`, {
          ...at('2400', 'SV1', `SV107-${k + 1}`, number),
          value: p,
        });
      });
    }
  });
  const total = el(clm, 2);
  if (!/^-?\d*\.?\d+$/.test(total))
    report('error', 'AMOUNT_INVALID', `CLM02 ${JSON.stringify(total)} is not an amount`, { ...at('2300', 'CLM', 'CLM02'), value: total });
  else if (lines.length > 0 && cents(total) !== sum) {
    const field = tx.kind === '837I' ? 'SV203' : 'SV102';
    report(
      'error',
      'TOTAL_MISMATCH',
      `CLM02 ${total} is not the sum of the ${lines.length} line charge${lines.length === 1 ? '' : 's'} (${field}): ${(sum / 100).toFixed(2)}`,
      { ...at('2300', 'CLM', 'CLM02'), value: total },
    );
  }
}

/** The number of diagnosis codes in the claim's HI segments (what SV107 pointers count). */
function diagnosisCount(claim: X12Loop): number {
  let n = 0;
  for (const hi of segmentsOf(claim, 'HI')) {
    for (let i = 1; i <= 12; i++) {
      const [qualifier = '', code = ''] = components(hi, i);
      if (code && /^(A?B[KFJN]|A?PR)$/.test(qualifier)) n++;
    }
  }
  return n;
}

/** DMG02 of the claim's patient: the 2010CA of its 2000C, else the subscriber's 2010BA. */
function birthDate(claim: X12Loop, tx: X12Transaction, today: string, report: Report): string | undefined {
  const owner = [...findLoops(tx, '2000C'), ...findLoops(tx, '2000B')].find((l) => l.loops.includes(claim));
  const name = owner?.loops.find((l) => ['QC', 'IL'].includes(el(l.segments[0], 1)) && l.segments[0]!.id === 'NM1');
  const dmg = segmentOf(name, 'DMG');
  if (!dmg || el(dmg, 1) !== 'D8') return undefined;
  return checkDate(el(dmg, 2), { claim: el(claim.segments[0], 1), loop: name!.loop, segment: 'DMG', element: 'DMG02' }, today, report);
}
