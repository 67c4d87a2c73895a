import type { X12Element, X12Segment, X12Separators } from './types';

/** `CLM` + 1 → `CLM01` (positions as implementation guides name them). */
export function elementName(id: string, position: number): string {
  return `${id}${String(position).padStart(2, '0')}`;
}

/** A raw element as the value keeps it: split on the repetition, then the component separator, when present. */
export function splitElement(raw: string, seps: Pick<X12Separators, 'component' | 'repetition'>): X12Element {
  if (seps.repetition && raw.includes(seps.repetition)) return raw.split(seps.repetition).map((r) => r.split(seps.component));
  if (raw.includes(seps.component)) return raw.split(seps.component);
  return raw;
}

/** The wire form of an element (the inverse of splitElement). */
export function joinElement(value: X12Element | undefined, seps: Pick<X12Separators, 'component' | 'repetition'>): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (value.length > 0 && Array.isArray(value[0])) return (value as string[][]).map((r) => r.join(seps.component)).join(seps.repetition);
  return (value as string[]).join(seps.component);
}

/** A segment object from its id and raw elements; ISA's fixed-width elements are never split. */
export function toSegment(id: string, raw: string[], seps: X12Separators): X12Segment {
  const segment: X12Segment = { id };
  raw.forEach((value, i) => {
    segment[elementName(id, i + 1)] = id === 'ISA' ? value : splitElement(value, seps);
  });
  return segment;
}

/** The raw elements of a segment, every position up to the last one it has (missing ones empty). */
export function segmentElements(segment: X12Segment, seps: X12Separators): string[] {
  const { id } = segment;
  let count = 0;
  const values = new Map<number, X12Element>();
  for (const [key, value] of Object.entries(segment)) {
    if (key.length <= id.length || !key.startsWith(id)) continue;
    const rest = key.slice(id.length);
    if (!/^\d{2,3}$/.test(rest)) continue;
    const position = Number(rest);
    values.set(position, value);
    count = Math.max(count, position);
  }
  const out: string[] = [];
  for (let i = 1; i <= count; i++) out.push(id === 'ISA' ? String(values.get(i) ?? '') : joinElement(values.get(i), seps));
  return out;
}

/**
 * An element's text: the whole element joined back when `component` is left out, else that component (1-based).
 * `""` when absent. `el(clm, 5, 1)` is CLM05-1, the place of service.
 */
export function el(segment: X12Segment | undefined, position: number, component?: number): string {
  if (!segment) return '';
  const value = segment[elementName(segment.id, position)];
  if (value === undefined) return '';
  const first = Array.isArray(value) && value.length > 0 && Array.isArray(value[0]) ? (value[0] as string[]) : value;
  if (component === undefined) {
    return typeof first === 'string' ? first : (first as string[]).join(':');
  }
  if (typeof first === 'string') return component === 1 ? first : '';
  return (first as string[])[component - 1] ?? '';
}

/** The components of an element (a plain string is one component), first repetition. */
export function components(segment: X12Segment | undefined, position: number): string[] {
  if (!segment) return [];
  const value = segment[elementName(segment.id, position)];
  if (value === undefined || value === '') return [];
  if (typeof value === 'string') return [value];
  if (value.length > 0 && Array.isArray(value[0])) return [...(value[0] as string[])];
  return [...(value as string[])];
}
