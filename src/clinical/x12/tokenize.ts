import { positionAt, X12Error } from './errors';
import type { X12Separators } from './types';

/** A segment as cut from the text: its id, its elements as raw strings, and where it starts. */
export interface RawSegment {
  id: string;
  elements: string[];
  offset: number;
}

export interface Tokens {
  separators: X12Separators;
  segments: RawSegment[];
  /** The text the offsets refer to (the input without a leading byte-order mark). */
  text: string;
  /** The ISA segment's length, terminator included (106 when well formed). */
  isaLength: number;
}

const SEGMENT_ID = /^[A-Z][A-Z0-9]{1,2}$/;
const PLAIN = /[A-Za-z0-9\s]/;
const BREAK = /[\r\n]/;
const GAP = /[\r\n\t ]/;

/**
 * Cuts X12 text into segments. The separators come from the ISA segment (element: its 4th character; component:
 * ISA16; segment terminator: the character after it; repetition: ISA11 when that is not a letter or digit). Line
 * breaks, tabs and spaces between a terminator and the next segment id are dropped, as are a leading byte-order
 * mark and whitespace. Throws X12Error (X12_INVALID) with the position for text that is not X12.
 */
export function tokenize(input: string): Tokens {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  let start = 0;
  while (start < text.length && GAP.test(text[start]!)) start++;
  if (!text.startsWith('ISA', start)) {
    const found = JSON.stringify(text.slice(start, start + 12));
    throw new X12Error(`Not X12: the text must start with an ISA segment, found ${found}`, positionAt(text, start, 1));
  }
  const element = text[start + 3] ?? '';
  if (!element || PLAIN.test(element)) {
    throw new X12Error(
      `Not X12: the ISA element separator (4th character) must not be a letter, digit or space, found ${JSON.stringify(element)}`,
      positionAt(text, start + 3, 1),
    );
  }
  // ISA has 16 elements: after the 16th separator come ISA16 (component separator) and the segment terminator.
  let p = start + 3;
  for (let n = 1; n < 16; n++) {
    p = text.indexOf(element, p + 1);
    if (p < 0) throw new X12Error(`Not X12: the ISA segment has ${n} of its 16 elements`, positionAt(text, start, 1));
  }
  const component = text[p + 1] ?? '';
  const segment = text[p + 2] ?? '';
  if (!component || !segment || PLAIN.test(component) || (PLAIN.test(segment) && !BREAK.test(segment)) || new Set([element, component, segment]).size < 3) {
    throw new X12Error(
      `Not X12: ISA16 and the segment terminator after it must be two distinct non-alphanumeric characters, found ${JSON.stringify(component + segment)}`,
      positionAt(text, p + 1, 1),
    );
  }
  const isaEnd = p + 3;
  const isaElements = text.slice(start + 4, p + 2).split(element);
  const isa11 = isaElements[10] ?? '';
  const repetition = isa11.length === 1 && !PLAIN.test(isa11) && ![element, component, segment].includes(isa11) ? isa11 : '';
  const line = BREAK.test(segment) ? '' : text.startsWith('\r\n', isaEnd) ? '\r\n' : BREAK.test(text[isaEnd] ?? '') ? text[isaEnd]! : '';

  const segments: RawSegment[] = [{ id: 'ISA', elements: isaElements, offset: start }];
  let i = isaEnd;
  for (;;) {
    while (i < text.length && GAP.test(text[i]!)) i++; // line breaks (and empty segments when the terminator is one)
    if (i >= text.length) break;
    const end = text.indexOf(segment, i);
    const ordinal = segments.length + 1;
    if (end < 0) {
      throw new X12Error(`Not X12: the last segment has no segment terminator ${JSON.stringify(segment)}`, positionAt(text, i, ordinal));
    }
    const parts = text.slice(i, end).split(element);
    const id = parts[0]!;
    if (!SEGMENT_ID.test(id)) {
      throw new X12Error(`Not X12: ${JSON.stringify(id.slice(0, 20))} is not a segment id (2 or 3 capital letters or digits)`, positionAt(text, i, ordinal));
    }
    segments.push({ id, elements: parts.slice(1), offset: i });
    i = end + 1;
  }
  return { separators: { element, component, repetition, segment, line }, segments, text, isaLength: isaEnd - start };
}
