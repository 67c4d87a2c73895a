import { decode } from './escape';
import { parseMessage } from './parse';
import { parsePath, type Hl7Path } from './path';
import { isUnsplit, pick } from './structure';
import type { Hl7v2Message, Hl7v2Segment } from './types';
import { readMessage } from './value';

/**
 * Reading values by HL7 path. A path that stops above the leaf reads its first part, as HAPI's Terser does:
 * `PID-5` is PID-5.1.1 (the family name's surname), `PID-8` the sex code. Values come decoded (`\T\` → `&`).
 * A segment that is absent gives undefined; a field, repetition or component that is empty or absent in a
 * present segment gives `""` (HL7 does not tell those apart). MSH-1 is the field separator and MSH-2 the
 * encoding characters, as sent.
 */

function occurrences(message: Hl7v2Message, p: Hl7Path, all: boolean): Hl7v2Segment[] {
  const matching = message.segments.filter((s) => s.id === p.segment);
  if (p.occurrence === '*' || (p.occurrence === undefined && all)) return matching;
  const seg = matching[(p.occurrence ?? 1) - 1];
  return seg ? [seg] : [];
}

function leaf(seg: Hl7v2Segment, p: Hl7Path, rep: number, message: Hl7v2Message): string {
  const raw = seg.fields[p.field] ?? '';
  if (isUnsplit(seg, p.field)) return raw;
  return decode(pick(raw, message.delimiters, rep, p.component ?? 1, p.subcomponent ?? 1) ?? '', message.delimiters);
}

function repetitionCount(seg: Hl7v2Segment, p: Hl7Path, message: Hl7v2Message): number {
  const raw = seg.fields[p.field] ?? '';
  if (isUnsplit(seg, p.field)) return 1;
  return raw.split(message.delimiters.repetition).length;
}

/** The value at a path (see above), decoded; undefined when the segment is not in the message. */
export function get(message: Hl7v2Message, path: string): string | undefined {
  const p = parsePath(path);
  const seg = occurrences(message, p, false)[0];
  if (!seg) return undefined;
  const rep = p.repetition === undefined || p.repetition === '*' ? 1 : p.repetition;
  return leaf(seg, p, rep, message);
}

/**
 * Every value a path reaches, in message order: each occurrence of the segment (unless the path names one)
 * × each repetition of the field (unless the path names one). `getAll(m, 'PID-3.1')` lists every patient
 * identifier; `getAll(m, 'OBX-5')` every observation value (one per OBX, empty ones included, so lists of
 * OBX-3 and OBX-5 line up).
 */
export function getAll(message: Hl7v2Message, path: string): string[] {
  const p = parsePath(path);
  const out: string[] = [];
  for (const seg of occurrences(message, p, true)) {
    if (typeof p.repetition === 'number') {
      out.push(leaf(seg, p, p.repetition, message));
      continue;
    }
    const n = repetitionCount(seg, p, message);
    for (let rep = 1; rep <= n; rep++) out.push(leaf(seg, p, rep, message));
  }
  return out;
}

/** Every segment of an id, in order (`segments(m, 'OBX')`). */
export function segments(message: Hl7v2Message, id: string): Hl7v2Segment[] {
  return message.segments.filter((s) => s.id === id);
}

let lastText: string | undefined;
let lastMessage: Hl7v2Message | undefined;

function asMessage(value: unknown): Hl7v2Message | undefined {
  if (typeof value === 'string') {
    if (value !== lastText) {
      lastMessage = parseMessage(value);
      lastText = value;
    }
    return lastMessage;
  }
  if (!value || typeof value !== 'object' || !Array.isArray((value as Hl7v2Message).segments)) return undefined;
  if ((value as Hl7v2Message).delimiters) return value as Hl7v2Message;
  // segments without the header facts (built by a code node): read them from MSH
  try {
    return readMessage(value);
  } catch {
    return undefined;
  }
}

/**
 * `$hl7(message, path)` for JSONata: `message` is an hl7v2-message value (or raw HL7 text, parsed on the
 * fly); gives what `get` gives (nothing when the segment is absent or `message` is not a message).
 */
export function hl7(message: unknown, path: string): string | undefined {
  const m = asMessage(message);
  return m ? get(m, path) : undefined;
}

/** `$hl7all(message, path)` for JSONata: what `getAll` gives. */
export function hl7all(message: unknown, path: string): string[] | undefined {
  const m = asMessage(message);
  return m ? getAll(m, path) : undefined;
}

/** The functions to bind for JSONata expressions: `$hl7(message, path)` and `$hl7all(message, path)`. */
export const HL7_JSONATA_BINDINGS = { hl7, hl7all } as const;
