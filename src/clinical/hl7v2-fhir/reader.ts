import { decode } from '@/clinical/hl7v2/escape';
import { splitOn } from '@/clinical/hl7v2/split';
import type { Hl7v2Delimiters, Hl7v2Message, Hl7v2Segment } from '@/clinical/hl7v2/types';

/**
 * Reading a segment's fields as the mappers need them: a field (one repetition) is a list of components, each
 * a list of sub-components, decoded (`\T\` → `&`). Empty parts read as `''`. Components are kept as plain
 * strings; only one that holds sub-components has its list (in `subs`), so reading a field makes one array, not
 * one per component.
 */
export class Field {
  constructor(
    /** Each component, decoded (for one with sub-components, see `subs`) */
    private readonly comps: readonly string[],
    readonly d: Hl7v2Delimiters,
    /** The sub-components of the components that have more than one, by component index (0-based) */
    private readonly subs?: readonly (readonly string[] | undefined)[],
  ) {}

  /** Component `i` (1-based), its first sub-component. */
  c(i: number): string {
    const list = this.subs?.[i - 1];
    if (list) return list[0]!;
    return this.comps[i - 1] ?? '';
  }

  /** Sub-component `j` of component `i`. */
  s(i: number, j: number): string {
    const list = this.subs?.[i - 1];
    if (list) return list[j - 1] ?? '';
    return j === 1 ? (this.comps[i - 1] ?? '') : '';
  }

  /** Component `i` as a field of its own (its sub-components become components): HD inside CX, CWE inside XCN. */
  sub(i: number): Field {
    const list = this.subs?.[i - 1];
    if (list) return new Field(list, this.d);
    const c = this.comps[i - 1];
    return new Field(c === undefined ? [] : [c], this.d);
  }

  get empty(): boolean {
    const subs = this.subs;
    for (let k = 0; k < this.comps.length; k++) {
      const list = subs?.[k];
      if (list) {
        for (const x of list) if (x !== '') return false;
      } else if (this.comps[k] !== '') return false;
    }
    return true;
  }

  /** The whole repetition as text, components joined by `^` (used where HL7 sends free text). */
  text(): string {
    return this.comps
      .map((c, k) => this.subs?.[k]?.join(this.d.subcomponent) ?? c)
      .join(this.d.component)
      .replace(/\^+$/, '');
  }
}

/** Whether a repetition holds nothing but delimiters. */
function isBlank(rep: string, d: Hl7v2Delimiters): boolean {
  for (let i = 0; i < rep.length; i++) {
    const ch = rep[i];
    if (ch !== d.component && ch !== d.subcomponent) return false;
  }
  return true;
}

export class Seg {
  constructor(
    readonly raw: Hl7v2Segment,
    readonly d: Hl7v2Delimiters,
    /** position of the segment in the message (0-based), for ids */
    readonly index: number,
  ) {}

  get id(): string {
    return this.raw.id;
  }

  /** The repetitions of each field read so far, by field number (split and decoded once). */
  private readonly read: (Field[] | undefined)[] = [];
  private none?: Field;

  /** Every non-empty repetition of field `n` (split and decoded once). */
  reps(n: number): Field[] {
    const known = this.read[n];
    if (known) return known;
    const raw = this.raw.fields[n] ?? '';
    const fields: Field[] = raw === '' ? NONE : repetitions(raw, this.d);
    this.read[n] = fields;
    return fields;
  }

  /** The first repetition of field `n` (an empty field when absent). */
  f(n: number): Field {
    return this.reps(n)[0] ?? (this.none ??= new Field([], this.d));
  }

  /** Field `n`, first repetition, component 1. */
  v(n: number): string {
    return this.f(n).c(1).trim();
  }
}

/** The repetitions of an empty field (shared: nobody adds to the list reps gives). */
const NONE: Field[] = [];

/** A raw field's non-blank repetitions, each split into components and sub-components and decoded. */
function repetitions(raw: string, d: Hl7v2Delimiters): Field[] {
  const fields: Field[] = [];
  // most fields hold one plain value: no repetition, component, sub-component or escape
  if (raw.indexOf(d.repetition) < 0 && raw.indexOf(d.component) < 0 && raw.indexOf(d.subcomponent) < 0 && raw.indexOf(d.escape) < 0) {
    fields.push(new Field([raw], d));
    return fields;
  }
  for (const rep of splitOn(raw, d.repetition)) {
    if (isBlank(rep, d)) continue;
    const comps = splitOn(rep, d.component);
    let subs: (string[] | undefined)[] | undefined;
    for (let k = 0; k < comps.length; k++) {
      const c = comps[k]!;
      const escaped = c.indexOf(d.escape) >= 0;
      if (c.indexOf(d.subcomponent) >= 0) {
        const list = splitOn(c, d.subcomponent);
        if (escaped) for (let j = 0; j < list.length; j++) list[j] = decode(list[j]!, d);
        (subs ??= [])[k] = list;
      } else if (escaped) comps[k] = decode(c, d);
    }
    fields.push(new Field(comps, d, subs));
  }
  return fields;
}

export function segs(message: Hl7v2Message): Seg[] {
  return message.segments.map((s, i) => new Seg(s, message.delimiters, i));
}
