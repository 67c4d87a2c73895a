import { el } from './elements';
import type { X12Segment } from './types';

/** Records a control issue about a segment (by its ordinal in the interchange). */
export type Issues = (code: string, message: string, segment: string, ordinal: number, element?: string) => void;

function count(value: string): number {
  return /^\d+$/.test(value) ? Number(value) : NaN;
}

/** SE01 = segments from ST to SE inclusive; SE02 = ST02. */
export function checkTransaction(ST: X12Segment, SE: X12Segment, segments: number, ordinal: number, report: Issues): void {
  const se01 = el(SE, 1);
  if (count(se01) !== segments) {
    report('SE01_COUNT', `SE01 says ${JSON.stringify(se01)} segments but transaction set ${el(ST, 2)} has ${segments} (ST through SE)`, 'SE', ordinal, 'SE01');
  }
  if (el(SE, 2) !== el(ST, 2)) {
    report('SE02_CONTROL', `SE02 control number ${JSON.stringify(el(SE, 2))} does not match ST02 ${JSON.stringify(el(ST, 2))}`, 'SE', ordinal, 'SE02');
  }
}

/** GE01 = transaction sets in the group; GE02 = GS06. */
export function checkGroup(GS: X12Segment, GE: X12Segment, transactions: number, ordinal: number, report: Issues): void {
  const ge01 = el(GE, 1);
  if (count(ge01) !== transactions) {
    report('GE01_COUNT', `GE01 says ${JSON.stringify(ge01)} transaction sets but functional group ${el(GS, 6)} has ${transactions}`, 'GE', ordinal, 'GE01');
  }
  if (el(GE, 2) !== el(GS, 6)) {
    report('GE02_CONTROL', `GE02 control number ${JSON.stringify(el(GE, 2))} does not match GS06 ${JSON.stringify(el(GS, 6))}`, 'GE', ordinal, 'GE02');
  }
}

/** IEA01 = functional groups in the interchange; IEA02 = ISA13. */
export function checkInterchange(ISA: X12Segment, IEA: X12Segment, groups: number, ordinal: number, report: Issues): void {
  const iea01 = el(IEA, 1);
  if (count(iea01) !== groups) {
    report('IEA01_COUNT', `IEA01 says ${JSON.stringify(iea01)} functional groups but the interchange has ${groups}`, 'IEA', ordinal, 'IEA01');
  }
  if (el(IEA, 2) !== el(ISA, 13)) {
    report('IEA02_CONTROL', `IEA02 control number ${JSON.stringify(el(IEA, 2))} does not match ISA13 ${JSON.stringify(el(ISA, 13))}`, 'IEA', ordinal, 'IEA02');
  }
}
