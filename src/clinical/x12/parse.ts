import { checkGroup, checkInterchange, checkTransaction, type Issues } from './control';
import { el, toSegment } from './elements';
import { positionAt, X12Error } from './errors';
import { buildLoops, transactionKind } from './loops';
import { tokenize, type RawSegment } from './tokenize';
import type { X12Group, X12Interchange, X12Issue, X12Segment, X12Separators, X12Transaction } from './types';

export interface ParseOptions {
  /** Control-count and control-number mismatches fail the parse (default: they become `warnings`). */
  strict?: boolean;
}

export type ParseResult = { ok: true; interchange: X12Interchange; warnings: X12Issue[] } | { ok: false; errors: X12Issue[] };

interface OpenTransaction {
  ST: X12Segment;
  body: X12Segment[];
  ordinal: number;
}

interface OpenGroup {
  GS: X12Segment;
  transactions: X12Transaction[];
  ordinal: number;
}

/**
 * Parses one X12 interchange (ISA…IEA) into the `x12-interchange` value. Text that is not X12 gives
 * `X12_INVALID` with its position; control counts and numbers (SE01, SE02, GE01, GE02, IEA01, IEA02, missing
 * trailers, ISA length) are errors in strict mode and `warnings` otherwise.
 */
export function parseX12(text: string, options: ParseOptions = {}): ParseResult {
  try {
    const { interchange, issues } = read(text);
    if (options.strict && issues.length > 0) return { ok: false, errors: issues };
    interchange.warnings = issues;
    return { ok: true, interchange, warnings: issues };
  } catch (e) {
    if (e instanceof X12Error) return { ok: false, errors: [e.toIssue()] };
    throw e;
  }
}

function read(input: string): { interchange: X12Interchange; issues: X12Issue[] } {
  const tokens = tokenize(input);
  const { separators: seps, segments: raw, text } = tokens;
  const issues: X12Issue[] = [];
  const report: Issues = (code, message, segment, ordinal, element) => {
    const at = raw[Math.min(ordinal, raw.length) - 1];
    issues.push({ code, message, segment, ...(element ? { element } : {}), position: positionAt(text, at?.offset ?? text.length, ordinal) });
  };
  const invalid = (message: string, ordinal: number): never => {
    throw new X12Error(message, positionAt(text, raw[ordinal - 1]!.offset, ordinal));
  };

  const ISA = toSegment('ISA', raw[0]!.elements, seps);
  if (tokens.isaLength !== 106)
    report('ISA_LENGTH', `The ISA segment is ${tokens.isaLength} characters long, terminator included; it must be 106 (fixed-width elements)`, 'ISA', 1);
  const groups: X12Group[] = [];
  let group: OpenGroup | undefined;
  let tx: OpenTransaction | undefined;
  let IEA: X12Segment | undefined;

  const closeTransaction = (SE: X12Segment | undefined, ordinal: number) => {
    if (!tx || !group) return;
    if (!SE) report('MISSING_SE', `Transaction set ${el(tx.ST, 2)} (ST at segment ${tx.ordinal}) has no SE trailer`, 'ST', tx.ordinal);
    else checkTransaction(tx.ST, SE, tx.body.length + 2, ordinal, report);
    group.transactions.push(transaction(tx, SE, group.GS));
    tx = undefined;
  };
  const closeGroup = (GE: X12Segment | undefined, ordinal: number) => {
    if (!group) return;
    if (!GE) report('MISSING_GE', `Functional group ${el(group.GS, 6)} (GS at segment ${group.ordinal}) has no GE trailer`, 'GS', group.ordinal);
    else checkGroup(group.GS, GE, group.transactions.length, ordinal, report);
    groups.push({ GS: group.GS, transactions: group.transactions, ...(GE ? { GE } : {}) });
    group = undefined;
  };

  for (let n = 1; n < raw.length; n++) {
    const r: RawSegment = raw[n]!;
    const ordinal = n + 1;
    if (IEA) invalid(r.id === 'ISA' ? 'A second interchange (ISA) follows IEA: parse one interchange at a time' : `${r.id} follows the IEA trailer`, ordinal);
    const segment = toSegment(r.id, r.elements, seps);
    switch (r.id) {
      case 'ISA':
        invalid('A second ISA before the IEA trailer of the first interchange', ordinal);
        break;
      case 'GS':
        closeTransaction(undefined, ordinal);
        closeGroup(undefined, ordinal);
        group = { GS: segment, transactions: [], ordinal };
        break;
      case 'ST':
        if (!group) invalid('ST outside a functional group (no GS before it)', ordinal);
        closeTransaction(undefined, ordinal);
        tx = { ST: segment, body: [], ordinal };
        break;
      case 'SE':
        if (!tx) invalid('SE without an ST before it', ordinal);
        closeTransaction(segment, ordinal);
        break;
      case 'GE':
        if (!group) invalid('GE without a GS before it', ordinal);
        closeTransaction(undefined, ordinal);
        closeGroup(segment, ordinal);
        break;
      case 'IEA':
        closeTransaction(undefined, ordinal);
        closeGroup(undefined, ordinal);
        IEA = segment;
        checkInterchange(ISA, IEA, groups.length, ordinal, report);
        break;
      default:
        if (!tx) invalid(`${r.id} outside a transaction set (segments belong between ST and SE)`, ordinal);
        tx!.body.push(segment);
    }
  }
  closeTransaction(undefined, raw.length + 1);
  closeGroup(undefined, raw.length + 1);
  if (!IEA) report('MISSING_IEA', `The interchange ${el(ISA, 13)} has no IEA trailer`, 'ISA', 1);
  if (groups.length === 0) invalid('The interchange has no functional group (GS…GE)', 1);
  const interchange: X12Interchange = { separators: seps satisfies X12Separators, ISA, groups, ...(IEA ? { IEA } : {}), warnings: [] };
  return { interchange, issues };
}

function transaction(open: OpenTransaction, SE: X12Segment | undefined, GS: X12Segment): X12Transaction {
  const set = el(open.ST, 1);
  const guide = el(open.ST, 3) || el(GS, 8);
  const { kind, defs } = transactionKind(set, guide, open.body);
  const { segments, loops } = buildLoops(open.body, defs);
  return { ST: open.ST, set, guide, kind, segments, loops, ...(SE ? { SE } : {}) };
}
