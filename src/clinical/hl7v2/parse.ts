import { excerpt, Hl7v2Error } from './errors';
import { delimitersOf, messageOf } from './header';
import type { Hl7v2Batch, Hl7v2BatchGroup, Hl7v2Delimiters, Hl7v2Issue, Hl7v2Message, Hl7v2Segment } from './types';

export type ParseResult = { ok: true; value: Hl7v2Message | Hl7v2Batch; warnings: Hl7v2Issue[] } | { ok: false; errors: Hl7v2Issue[] };

const MAX_ERRORS = 20;
const HEADERS = new Set(['MSH', 'FHS', 'BHS']);

/** A segment id: three upper-case letters or digits, the first a letter (`PID`, `OBX`, `ZPI`, `PV1`). */
function isSegmentId(line: string): boolean {
  const a = line.charCodeAt(0);
  if (!(a >= 65 && a <= 90)) return false;
  for (let i = 1; i < 3; i++) {
    const c = line.charCodeAt(i);
    if (!((c >= 65 && c <= 90) || (c >= 48 && c <= 57))) return false;
  }
  return true;
}

/** Lines ended by CR, LF or CRLF (a plain split when the text uses one kind, which is most of the time). */
function splitLines(text: string): string[] {
  const cr = text.indexOf('\r') >= 0;
  const lf = text.indexOf('\n') >= 0;
  if (cr && lf) return text.split(/\r\n|\r|\n/);
  return text.split(lf ? '\n' : '\r');
}

/** MSH, FHS or BHS: a segment that declares the delimiters. */
function isHeader(line: string): boolean {
  const a = line.charCodeAt(0);
  if (a === 77) return line.charCodeAt(1) === 83 && line.charCodeAt(2) === 72; // MSH
  if (a === 70 || a === 66) return line.charCodeAt(1) === 72 && line.charCodeAt(2) === 83; // FHS, BHS
  return false;
}

function isBlank(line: string): boolean {
  if (line.length === 0) return true;
  const c = line.charCodeAt(0);
  // only a line that starts with white space can be blank (a segment starts with a letter)
  return (c === 32 || c === 9 || c === 11 || c === 12 || c === 0xa0 || c === 0xfeff) && line.trim().length === 0;
}

/**
 * Reads HL7 v2 text: one message, or a batch (FHS/BHS … BTS/FTS, or several messages one after the other).
 * Segments may end with CR, LF or CRLF; a byte-order mark and blank lines are skipped; each header segment
 * (MSH, FHS, BHS) declares the delimiters of what follows it. Nothing is decoded or dropped: every field keeps
 * its raw text, so `serialize` gives the text back (with CR segment ends).
 */
export function parseHl7v2(text: string): ParseResult {
  if (typeof text !== 'string') return fail([{ code: 'HL7_INVALID', message: `Not HL7 v2: expected text, got ${text === null ? 'null' : typeof text}.` }]);
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = splitLines(body);
  const errors: Hl7v2Issue[] = [];
  const warnings: Hl7v2Issue[] = [];
  const error = (message: string, line: number, segment?: string) => {
    if (errors.length < MAX_ERRORS) errors.push({ code: 'HL7_INVALID', message, line, ...(segment ? { segment } : {}) });
  };

  let start = 0;
  while (start < lines.length && isBlank(lines[start]!)) start++;
  if (start === lines.length) return fail([{ code: 'HL7_INVALID', message: 'Not HL7 v2: the text is empty.' }]);
  if (!HEADERS.has(lines[start]!.slice(0, 3))) {
    return fail([
      {
        code: 'HL7_INVALID',
        message: `Not HL7 v2: a message starts with an MSH segment (or FHS/BHS for a batch), found ${excerpt(lines[start]!)} (line ${start + 1}).`,
        line: start + 1,
      },
    ]);
  }

  let d: Hl7v2Delimiters | undefined;
  let fileHeader: Hl7v2Segment | undefined;
  let fileTrailer: Hl7v2Segment | undefined;
  const groups: Hl7v2BatchGroup[] = [];
  let group: Hl7v2BatchGroup = { messages: [] };
  let segments: Hl7v2Segment[] | undefined;
  let messageDelimiters: Hl7v2Delimiters | undefined;
  let envelope = false;

  const endMessage = () => {
    if (segments) group.messages.push(messageOf(segments, messageDelimiters!));
    segments = undefined;
  };
  const endGroup = () => {
    endMessage();
    if (group.header || group.trailer || group.messages.length) groups.push(group);
    group = { messages: [] };
  };

  for (let i = start; i < lines.length; i++) {
    const line = lines[i]!;
    const lineNo = i + 1;
    if (isBlank(line)) continue;
    if (line.length < 3 || !isSegmentId(line)) {
      error(`Line ${lineNo} does not start with a segment id (three upper-case letters or digits, the first a letter, such as PID): ${excerpt(line)}.`, lineNo);
      continue;
    }
    let id: string;
    let fields: string[];
    if (isHeader(line)) {
      id = line.slice(0, 3);
      const declared = delimitersOf(line);
      if (typeof declared === 'string') {
        error(`${declared} (line ${lineNo}).`, lineNo, id);
        // without the delimiters of the first header nothing after it can be read
        if (!d) return fail(errors);
        continue;
      }
      d = declared;
      fields = line.slice(4).split(d.field);
      fields.unshift(id, d.field);
    } else {
      // the split gives the id as fields[0] (a new string of three characters otherwise)
      fields = line.split(d!.field);
      id = fields[0]!;
      if (id.length !== 3) {
        id = line.slice(0, 3);
        error(
          `Line ${lineNo} (${id}): the segment id is followed by ${JSON.stringify(line[3])}, not the field separator ${JSON.stringify(d!.field)}.`,
          lineNo,
          id,
        );
        continue;
      }
    }
    const segment: Hl7v2Segment = { id, fields };
    switch (id) {
      case 'MSH':
        endMessage();
        if (fileTrailer) error(`Line ${lineNo}: a message after the file trailer (FTS).`, lineNo, id);
        segments = [segment];
        messageDelimiters = d;
        break;
      case 'FHS':
        if (fileHeader || groups.length || group.header || group.messages.length || segments)
          error(`Line ${lineNo}: FHS (file header) must be the first segment.`, lineNo, id);
        fileHeader = segment;
        envelope = true;
        break;
      case 'BHS':
        endGroup();
        group.header = segment;
        envelope = true;
        break;
      case 'BTS':
        endMessage();
        group.trailer = segment;
        endGroup();
        envelope = true;
        break;
      case 'FTS':
        endGroup();
        if (fileTrailer) error(`Line ${lineNo}: a second file trailer (FTS).`, lineNo, id);
        fileTrailer = segment;
        envelope = true;
        break;
      default:
        if (!segments) error(`Line ${lineNo}: segment ${id} is outside a message (no MSH before it in its batch).`, lineNo, id);
        else segments.push(segment);
    }
  }
  endGroup();
  if (errors.length) return fail(errors);

  if (!envelope && groups.length === 1 && groups[0]!.messages.length === 1) return { ok: true, value: groups[0]!.messages[0]!, warnings };
  for (const g of groups) {
    const declared = g.trailer?.fields[1];
    if (declared && /^\d+$/.test(declared) && Number(declared) !== g.messages.length) {
      warnings.push({ code: 'HL7_BATCH_COUNT', message: `BTS-1 says the batch holds ${declared} message(s), it holds ${g.messages.length}.`, segment: 'BTS' });
    }
  }
  const batchCount = fileTrailer?.fields[1];
  if (batchCount && /^\d+$/.test(batchCount) && Number(batchCount) !== groups.length) {
    warnings.push({ code: 'HL7_BATCH_COUNT', message: `FTS-1 says the file holds ${batchCount} batch(es), it holds ${groups.length}.`, segment: 'FTS' });
  }
  return {
    ok: true,
    value: { ...(fileHeader ? { file_header: fileHeader } : {}), batches: groups, ...(fileTrailer ? { file_trailer: fileTrailer } : {}) },
    warnings,
  };
}

function fail(errors: Hl7v2Issue[]): ParseResult {
  return { ok: false, errors };
}

/** Whether a parsed value is a batch rather than one message. */
export function isBatch(value: Hl7v2Message | Hl7v2Batch): value is Hl7v2Batch {
  return Array.isArray((value as Hl7v2Batch).batches);
}

/** Every message of a batch, in order. */
export function batchMessages(batch: Hl7v2Batch): Hl7v2Message[] {
  return batch.batches.flatMap((g) => g.messages);
}

/** Reads one message; throws Hl7v2Error when the text is not HL7 v2 or holds a batch. */
export function parseMessage(text: string): Hl7v2Message {
  const r = parseHl7v2(text);
  if (!r.ok) throw new Hl7v2Error(r.errors);
  if (isBatch(r.value)) {
    const n = batchMessages(r.value).length;
    throw new Hl7v2Error([{ code: 'HL7_INVALID', message: `Expected one HL7 v2 message, found a batch of ${n} message(s).` }]);
  }
  return r.value;
}

/** Reads a batch (one message gives a batch of one); throws Hl7v2Error when the text is not HL7 v2. */
export function parseBatch(text: string): Hl7v2Batch {
  const r = parseHl7v2(text);
  if (!r.ok) throw new Hl7v2Error(r.errors);
  return isBatch(r.value) ? r.value : { batches: [{ messages: [r.value] }] };
}
