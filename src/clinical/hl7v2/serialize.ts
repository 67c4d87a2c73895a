import { Hl7v2Error } from './errors';
import { isBatch } from './parse';
import type { Hl7v2Batch, Hl7v2Issue, Hl7v2Message, Hl7v2Segment } from './types';

/** What ends each segment: CR is the standard; LF or CRLF for files and tools that want lines. */
export type SegmentTerminator = 'CR' | 'LF' | 'CRLF';

const ENDINGS: Record<SegmentTerminator, string> = { CR: '\r', LF: '\n', CRLF: '\r\n' };

export interface SerializeOptions {
  /** Default CR. */
  terminator?: SegmentTerminator;
}

const HEADERS = new Set(['MSH', 'FHS', 'BHS']);
const SEGMENT_ID = /^[A-Z][A-Z0-9]{2}$/;

/** One segment's text (no terminator) with the field separator in force. */
export function segmentText(seg: Hl7v2Segment, separator: string): string {
  if (HEADERS.has(seg.id)) return seg.id + seg.fields[1] + seg.fields.slice(2).join(seg.fields[1]);
  return seg.fields.join(separator);
}

/**
 * What is wrong with a value that should be a message (or batch), as a user would fix it: the path of the
 * bad part and why. Empty when it serializes. Values built by code or JSONata nodes are checked with this.
 */
export function problems(value: unknown): string[] {
  const out: string[] = [];
  if (!value || typeof value !== 'object' || Array.isArray(value)) return ['the value is not an object'];
  if (isBatch(value as Hl7v2Batch)) {
    const b = value as Hl7v2Batch;
    let sep = '|';
    const check = (seg: unknown, path: string) => {
      out.push(...segmentProblems(seg, path, sep));
      if (!out.length && HEADERS.has((seg as Hl7v2Segment).id)) sep = (seg as Hl7v2Segment).fields[1]!;
    };
    if (b.file_header !== undefined) check(b.file_header, 'file_header');
    b.batches.forEach((g, i) => {
      if (!g || typeof g !== 'object' || !Array.isArray(g.messages)) return void out.push(`batches[${i}].messages is not a list`);
      if (g.header !== undefined) check(g.header, `batches[${i}].header`);
      g.messages.forEach((m, j) => out.push(...messageProblems(m, `batches[${i}].messages[${j}].`)));
      if (g.trailer !== undefined) check(g.trailer, `batches[${i}].trailer`);
    });
    if (b.file_trailer !== undefined) check(b.file_trailer, 'file_trailer');
    return out.slice(0, 20);
  }
  return messageProblems(value, '').slice(0, 20);
}

function messageProblems(value: unknown, at: string): string[] {
  const m = value as Hl7v2Message;
  if (!m || typeof m !== 'object' || !Array.isArray(m.segments)) return [`${at}segments is not a list of segments`];
  if (m.segments.length === 0) return [`${at}segments is empty (a message needs at least MSH)`];
  const out: string[] = [];
  const msh = m.segments[0] as Hl7v2Segment;
  if (msh?.id !== 'MSH') return [`${at}segments[0] must be the MSH segment, found ${JSON.stringify(msh?.id)}`];
  let sep = '|';
  m.segments.forEach((seg, i) => {
    const found = segmentProblems(seg, `${at}segments[${i}]`, sep);
    out.push(...found);
    if (i === 0 && !found.length) sep = seg.fields[1]!;
  });
  return out;
}

function segmentProblems(value: unknown, at: string, sep: string): string[] {
  const seg = value as Hl7v2Segment;
  if (!seg || typeof seg !== 'object' || typeof seg.id !== 'string' || !Array.isArray(seg.fields)) return [`${at} is not a segment ({id, fields})`];
  if (!SEGMENT_ID.test(seg.id)) return [`${at}.id ${JSON.stringify(seg.id)} is not a segment id (three upper-case letters or digits)`];
  if (seg.fields[0] !== seg.id) return [`${at}.fields[0] must be the segment id ${JSON.stringify(seg.id)}`];
  const out: string[] = [];
  const header = HEADERS.has(seg.id);
  if (header && (typeof seg.fields[1] !== 'string' || seg.fields[1].length !== 1))
    return [`${at} (${seg.id}) fields[1] must be the field separator, one character`];
  const own = header ? seg.fields[1]! : sep;
  seg.fields.forEach((f, n) => {
    if (typeof f !== 'string') out.push(`${at} (${seg.id}) fields[${n}] is not text`);
    else if (n > 0 && !(header && n === 1) && f.includes(own))
      out.push(`${at} (${seg.id}) fields[${n}] contains the field separator ${JSON.stringify(own)} (escape it as \\F\\)`);
    else if (/[\r\n]/.test(f)) out.push(`${at} (${seg.id}) fields[${n}] contains a line break (write it as \\.br\\)`);
  });
  return out;
}

function invalid(list: string[]): never {
  throw new Hl7v2Error(list.map((message): Hl7v2Issue => ({ code: 'HL7_INVALID', message: `Not an hl7v2-message: ${message}.` })));
}

function messageLines(m: Hl7v2Message, out: string[]): void {
  const sep = m.segments[0]!.fields[1]!;
  for (const seg of m.segments) out.push(segmentText(seg, sep));
}

/**
 * The text of a message or batch: each segment followed by the terminator (CR unless told otherwise).
 * Throws Hl7v2Error, naming the bad parts, when the value is not a well-formed message or batch.
 */
export function serialize(value: Hl7v2Message | Hl7v2Batch, options: SerializeOptions = {}): string {
  const found = problems(value);
  if (found.length) invalid(found);
  const end = ENDINGS[options.terminator ?? 'CR'];
  const lines: string[] = [];
  if (isBatch(value)) {
    let sep = value.file_header?.fields[1] ?? '|';
    const envelope = (seg: Hl7v2Segment | undefined) => {
      if (!seg) return;
      if (HEADERS.has(seg.id)) sep = seg.fields[1]!;
      lines.push(segmentText(seg, sep));
    };
    envelope(value.file_header);
    for (const g of value.batches) {
      envelope(g.header);
      for (const m of g.messages) {
        messageLines(m, lines);
        sep = m.segments[0]!.fields[1]!;
      }
      envelope(g.trailer);
    }
    envelope(value.file_trailer);
  } else {
    messageLines(value, lines);
  }
  return lines.join(end) + end;
}
