import type { Hl7v2Delimiters, Hl7v2Segment } from './types';

/**
 * The parts of a raw field: repetitions → components → sub-components, each still escaped. The value keeps
 * fields whole; these split them when a value is read.
 */
export function splitField(raw: string, d: Hl7v2Delimiters): string[][][] {
  return raw.split(d.repetition).map((rep) => rep.split(d.component).map((c) => c.split(d.subcomponent)));
}

/** Whether field `n` of this segment is one HL7 does not split (MSH-1 and MSH-2, and FHS/BHS alike). */
export function isUnsplit(segment: Hl7v2Segment | string, n: number): boolean {
  const id = typeof segment === 'string' ? segment : segment.id;
  return (n === 1 || n === 2) && (id === 'MSH' || id === 'FHS' || id === 'BHS');
}

/**
 * The raw text at repetition `rep`, component `comp`, sub-component `sub` (all 1-based; 0 takes the whole
 * level) of a field's raw text, or undefined when the field has no such part.
 */
export function pick(raw: string, d: Hl7v2Delimiters, rep: number, comp: number, sub: number): string | undefined {
  let text: string | undefined = raw;
  if (rep > 0) {
    text = nth(text, d.repetition, rep);
    if (text === undefined) return undefined;
  }
  if (comp > 0) {
    text = nth(text, d.component, comp);
    if (text === undefined) return undefined;
  }
  if (sub > 0) {
    text = nth(text, d.subcomponent, sub);
    if (text === undefined) return undefined;
  }
  return text;
}

/** The n-th (1-based) piece of `text` split on `sep`, without splitting all of it. */
function nth(text: string | undefined, sep: string, n: number): string | undefined {
  if (text === undefined) return undefined;
  let start = 0;
  for (let i = 1; i < n; i++) {
    const at = text.indexOf(sep, start);
    if (at < 0) return undefined;
    start = at + sep.length;
  }
  const end = text.indexOf(sep, start);
  return end < 0 ? text.slice(start) : text.slice(start, end);
}
