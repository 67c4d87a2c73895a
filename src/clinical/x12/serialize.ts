import { segmentElements } from './elements';
import { flattenLoops } from './loops';
import type { X12Interchange, X12Segment, X12Separators } from './types';

/** Every segment of the interchange in wire order, ISA to IEA. */
export function allSegments(ic: X12Interchange): X12Segment[] {
  const out: X12Segment[] = [ic.ISA];
  for (const g of ic.groups) {
    out.push(g.GS);
    for (const t of g.transactions) {
      out.push(t.ST);
      flattenLoops(t, out);
      if (t.SE) out.push(t.SE);
    }
    if (g.GE) out.push(g.GE);
  }
  if (ic.IEA) out.push(ic.IEA);
  return out;
}

/** One segment's wire text, without its terminator. */
export function segmentText(segment: X12Segment, seps: X12Separators): string {
  return [segment.id, ...segmentElements(segment, seps)].join(seps.element);
}

/**
 * The interchange as X12 text: each segment's elements joined with the separators the value records, the
 * segment terminator after every segment, and `separators.line` between segments (none after the last). Changing
 * `separators` re-delimits the whole interchange, ISA11 and ISA16 included.
 */
export function serializeX12(ic: X12Interchange): string {
  const seps = ic.separators;
  // ISA16 is the component separator and ISA11 the repetition one (when there is one): `separators` decides.
  const isa = { ...ic.ISA, ISA16: seps.component, ...(seps.repetition ? { ISA11: seps.repetition } : {}) };
  return allSegments({ ...ic, ISA: isa })
    .map((s) => segmentText(s, seps) + seps.segment)
    .join(seps.line);
}
