import { decode } from './escape';
import { pick } from './structure';
import type { Hl7v2Delimiters, Hl7v2Message, Hl7v2Segment } from './types';

/** The usual delimiters `|^~\&` (what a message built from scratch uses). */
export const DEFAULT_DELIMITERS: Readonly<Hl7v2Delimiters> = Object.freeze({
  field: '|',
  component: '^',
  repetition: '~',
  escape: '\\',
  subcomponent: '&',
  truncation: '',
});

function usable(c: string | undefined): boolean {
  return c !== undefined && c.length === 1 && !/[A-Za-z0-9\s]/.test(c);
}

/**
 * The delimiters a header segment (MSH, FHS or BHS) declares: the character after the segment id, then the
 * four or five encoding characters of field 2. A string instead says what is wrong with them.
 */
export function delimitersOf(line: string): Hl7v2Delimiters | string {
  // the delimiters nearly every sender uses, without the checks
  if (line.startsWith('|^~\\&|', 3)) return DEFAULT_DELIMITERS;
  const field = line[3];
  const id = line.slice(0, 3);
  if (!usable(field)) return `${id}-1, the field separator, must be one character that is not a letter, digit or space, found ${JSON.stringify(field ?? '')}`;
  const end = line.indexOf(field!, 4);
  const enc = end < 0 ? line.slice(4) : line.slice(4, end);
  const chars = [...enc];
  const ok = (chars.length === 4 || chars.length === 5) && chars.every(usable) && new Set([field, ...chars]).size === chars.length + 1;
  if (!ok) {
    return [
      `${id}-2 must hold the encoding characters (component, repetition, escape, sub-component and, from`,
      `v2.7, truncation, as in "^~\\&"), each once and none the field separator, found ${JSON.stringify(enc)}`,
    ].join(' ');
  }
  return { field: field!, component: chars[0]!, repetition: chars[1]!, escape: chars[2]!, subcomponent: chars[3]!, truncation: chars[4] ?? '' };
}

function first(seg: Hl7v2Segment, n: number, d: Hl7v2Delimiters, comp = 1): string {
  const raw = seg.fields[n];
  if (raw === undefined) return '';
  return decode(pick(raw, d, 1, comp, 1) ?? '', d);
}

/** A message value from its segments (MSH first) and the delimiters its MSH declares. */
export function messageOf(segments: Hl7v2Segment[], d: Hl7v2Delimiters): Hl7v2Message {
  const msh = segments[0]!;
  return {
    message_type: first(msh, 9, d, 1),
    trigger_event: first(msh, 9, d, 2),
    structure: first(msh, 9, d, 3),
    control_id: first(msh, 10, d),
    version: first(msh, 12, d),
    processing_id: first(msh, 11, d),
    sent_at: first(msh, 7, d),
    sending_application: first(msh, 3, d),
    sending_facility: first(msh, 4, d),
    receiving_application: first(msh, 5, d),
    receiving_facility: first(msh, 6, d),
    delimiters: { ...d },
    segments,
  };
}
