import { decode } from '@/clinical/hl7v2/escape';
import { DATA_TYPES, SEGMENTS, segmentName } from '@/clinical/hl7v2/fields';
import type { FieldRow } from '@/clinical/hl7v2/fields';
import { isUnsplit, splitField } from '@/clinical/hl7v2/structure';
import type { Hl7v2Message } from '@/clinical/hl7v2/types';

/**
 * An `hl7v2-message` laid out for reading: segments, their fields with HL7's names (`PID-5 Patient Name`),
 * repetitions, components and sub-components with theirs, escape sequences decoded, and the HL7 table of every
 * coded part (its meaning is looked up on the server: see `tableLookups`). Pure, browser-safe.
 */

export interface Hl7Part {
  /** 1-based position: component number, or sub-component number inside a component */
  n: number;
  name?: string;
  /** HL7 data type (`DTM`, `ST`…), when known */
  dataType?: string;
  /** decoded text ("" when empty) */
  value: string;
  table?: string;
  /** sub-components, when the component has more than one */
  parts?: Hl7Part[];
}

export interface Hl7Field {
  /** `PID-5` (a repeated segment: `OBX[2]-5`) */
  path: string;
  n: number;
  name?: string;
  dataType?: string;
  /** the field's HL7 table (a simple coded field such as PID-8) */
  table?: string;
  /** one list of components per repetition; a simple value is one component */
  repetitions: Hl7Part[][];
  empty: boolean;
}

export interface Hl7Segment {
  id: string;
  name?: string;
  /** 1-based occurrence of this segment id in the message */
  occurrence: number;
  /** how many segments of this id the message has */
  of: number;
  fields: Hl7Field[];
}

/** Coded types whose first component is a code of the field's table (PID-10 `2106-3^White^HL70005`). */
const CODED = new Set(['CE', 'CWE', 'CNE', 'CF', 'ID', 'IS']);

function row(rows: readonly FieldRow[] | undefined, n: number): FieldRow | undefined {
  return rows?.[n - 1];
}

function leaf(n: number, raw: string, m: Hl7v2Message, def: FieldRow | undefined): Hl7Part {
  return { n, ...(def ? { name: def[0], dataType: def[1] } : {}), value: decode(raw, m.delimiters), ...(def?.[2] ? { table: def[2] } : {}) };
}

function component(n: number, subs: string[], m: Hl7v2Message, def: FieldRow | undefined): Hl7Part {
  if (subs.length <= 1) return leaf(n, subs[0] ?? '', m, def);
  const types = def ? DATA_TYPES[def[1]] : undefined;
  const parts = subs.map((s, i) => leaf(i + 1, s, m, row(types, i + 1)));
  const value = parts.map((p) => p.value).join(m.delimiters.subcomponent);
  return { n, ...(def ? { name: def[0] } : {}), value, ...(def?.[2] ? { table: def[2] } : {}), parts };
}

function field(segmentId: string, path: string, n: number, raw: string, m: Hl7v2Message): Hl7Field {
  const def = row(SEGMENTS[segmentId]?.fields, n);
  const base = { path, n, ...(def ? { name: def[0], dataType: def[1] } : {}), ...(def?.[2] ? { table: def[2] } : {}) };
  if (isUnsplit(segmentId, n)) return { ...base, table: undefined, repetitions: [[{ n: 1, value: raw }]], empty: raw === '' };
  const types = def ? DATA_TYPES[def[1]] : undefined;
  const repetitions = splitField(raw, m.delimiters).map((comps) =>
    comps.map((subs, i) => {
      // a simple field (PID-8, PID-7) is its own only component: it takes the field's type
      const cdef = row(types, i + 1) ?? (i === 0 && def && !types ? ([def[0], def[1]] as const) : undefined);
      const part = component(i + 1, subs, m, cdef);
      if (cdef && !row(types, i + 1)) delete part.name;
      // the code of a coded field sits in its first component (or is the whole value)
      if (i === 0 && !part.table && def?.[2] && CODED.has(def[1])) part.table = def[2];
      return part;
    }),
  );
  return { ...base, repetitions, empty: raw === '' || raw === '""' };
}

export function hl7Segments(m: Hl7v2Message): Hl7Segment[] {
  const counts = new Map<string, number>();
  for (const s of m.segments) counts.set(s.id, (counts.get(s.id) ?? 0) + 1);
  const seen = new Map<string, number>();
  return m.segments.map((s) => {
    const occurrence = (seen.get(s.id) ?? 0) + 1;
    seen.set(s.id, occurrence);
    const of = counts.get(s.id) ?? 1;
    const at = of > 1 ? `${s.id}[${occurrence}]` : s.id;
    const name = segmentName(s.id);
    return {
      id: s.id,
      ...(name ? { name } : {}),
      occurrence,
      of,
      fields: s.fields.slice(1).map((raw, i) => field(s.id, `${at}-${i + 1}`, i + 1, raw, m)),
    };
  });
}

/** Every (table, code) pair the message uses, once each: what to ask the server the meanings of. */
export function tableLookups(segments: Hl7Segment[]): { table: string; code: string }[] {
  const seen = new Set<string>();
  const out: { table: string; code: string }[] = [];
  const visit = (p: Hl7Part) => {
    if (p.table && p.value && p.value.length <= 50 && !p.parts) {
      const key = `${p.table}|${p.value}`;
      if (!seen.has(key)) {
        seen.add(key);
        out.push({ table: p.table, code: p.value });
      }
    }
    p.parts?.forEach(visit);
  };
  for (const s of segments) for (const f of s.fields) for (const rep of f.repetitions) rep.forEach(visit);
  return out;
}

/** The field as one line: repetitions joined by `~`-like separators, components by `^` (decoded text). */
export function fieldText(f: Hl7Field, m: Hl7v2Message): string {
  return f.repetitions.map((rep) => rep.map((c) => c.value).join(m.delimiters.component)).join(m.delimiters.repetition);
}
